package io.pushline.schema;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information that always hands out one hand-written serializer: what a {@code @TypeInfo}
 * factory returns for the types whose generic POJO serializer cost too much (reflection per field,
 * a flag byte per field).
 */
public final class SerializerTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;
    private final Class<T> type;
    private final TypeSerializer<T> serializer;

    public SerializerTypeInfo(Class<T> type, TypeSerializer<T> serializer) {
        this.type = type;
        this.serializer = serializer;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    @Override
    public String toString() {
        return type.getSimpleName();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SerializerTypeInfo && ((SerializerTypeInfo<?>) o).type == type;
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof SerializerTypeInfo;
    }
}
