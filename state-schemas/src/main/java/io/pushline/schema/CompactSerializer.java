package io.pushline.schema;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Base of Pushline's hand-written serializers of mutable types: variable length, no instance reuse
 * (a copy and a read always make a new object). Subclasses write the wire form, the copy and the
 * snapshot.
 */
public abstract class CompactSerializer<T> extends TypeSerializerSingleton<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public T copy(T from, T reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public T deserialize(T reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    /**
     * Snapshot of a serializer whose wire form is version 1 of its own: restores {@code instance};
     * state the generic POJO serializer wrote (before the type had a hand-written serializer) is
     * migrated. A new wire form needs a new version here.
     */
    public abstract static class Snapshot<T> implements TypeSerializerSnapshot<T> {
        private final TypeSerializer<T> instance;

        protected Snapshot(TypeSerializer<T> instance) {
            this.instance = instance;
        }

        @Override
        public int getCurrentVersion() {
            return 1;
        }

        @Override
        public void writeSnapshot(DataOutputView out) {}

        @Override
        public void readSnapshot(int version, DataInputView in, ClassLoader loader)
                throws IOException {
            if (version != 1) {
                throw new IOException(
                        "unknown " + getClass().getName() + " snapshot version " + version);
            }
        }

        @Override
        public TypeSerializer<T> restoreSerializer() {
            return instance;
        }

        @Override
        public TypeSerializerSchemaCompatibility<T> resolveSchemaCompatibility(
                TypeSerializerSnapshot<T> old) {
            if (old.getClass() == getClass()) {
                return TypeSerializerSchemaCompatibility.compatibleAsIs();
            }
            if (old instanceof PojoSerializerSnapshot) {
                return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
            }
            return TypeSerializerSchemaCompatibility.incompatible();
        }
    }
}
