package io.pushline.schema;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.ListTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A list of records written as one length-prefixed block: the records are serialized into a buffer
 * on the heap, which reaches the target in one write. For operator list state whose elements are
 * chunks of many small records: a checkpoint stream takes each byte through a chain of wrapping
 * streams, and the records of a chunk written straight to it cost more than serializing them.
 *
 * <p>The element serializer's snapshot is nested in this one's, so the records' type evolves as it
 * would in any list.
 */
public final class ChunkSerializer<T> extends TypeSerializer<List<T>> {
    private static final long serialVersionUID = 1L;

    private final TypeSerializer<T> element;

    public ChunkSerializer(TypeSerializer<T> element) {
        this.element = element;
    }

    /** The type of chunks of {@code element}s, for a state descriptor. */
    public static <T> TypeInformation<List<T>> typeOf(TypeInformation<T> element) {
        return new ChunkTypeInfo<>(element);
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<List<T>> duplicate() {
        TypeSerializer<T> d = element.duplicate();
        return d == element ? this : new ChunkSerializer<>(d);
    }

    @Override
    public List<T> createInstance() {
        return new ArrayList<>();
    }

    @Override
    public List<T> copy(List<T> from) {
        List<T> out = new ArrayList<>(from.size());
        for (T t : from) {
            out.add(element.copy(t));
        }
        return out;
    }

    @Override
    public List<T> copy(List<T> from, List<T> reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(List<T> records, DataOutputView target) throws IOException {
        DataOutputSerializer buffer = new DataOutputSerializer(4096);
        buffer.writeInt(records.size());
        for (T t : records) {
            element.serialize(t, buffer);
        }
        target.writeInt(buffer.length());
        target.write(buffer.getSharedBuffer(), 0, buffer.length());
    }

    @Override
    public List<T> deserialize(DataInputView source) throws IOException {
        byte[] bytes = block(source);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        int n = in.readInt();
        if (n < 0 || n > bytes.length) {
            throw new IOException("a chunk of " + bytes.length + " bytes claims " + n + " records");
        }
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(element.deserialize(in));
        }
        return out;
    }

    @Override
    public List<T> deserialize(List<T> reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        byte[] bytes = block(source);
        target.writeInt(bytes.length);
        target.write(bytes);
    }

    private static byte[] block(DataInputView source) throws IOException {
        int length = source.readInt();
        if (length < 4) {
            throw new IOException("a chunk of " + length + " bytes");
        }
        byte[] bytes = new byte[length];
        source.readFully(bytes);
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkSerializer && ((ChunkSerializer<?>) o).element.equals(element);
    }

    @Override
    public int hashCode() {
        return element.hashCode() * 31 + 7;
    }

    @Override
    public TypeSerializerSnapshot<List<T>> snapshotConfiguration() {
        return new Snapshot<>(this);
    }

    /** The snapshot: version 1 of the outer form, with the element serializer's nested. */
    public static final class Snapshot<T>
            extends CompositeTypeSerializerSnapshot<List<T>, ChunkSerializer<T>> {
        public Snapshot() {}

        Snapshot(ChunkSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected int getCurrentOuterSnapshotVersion() {
            return 1;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(ChunkSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.element};
        }

        @Override
        @SuppressWarnings("unchecked")
        protected ChunkSerializer<T> createOuterSerializerWithNestedSerializers(
                TypeSerializer<?>[] nested) {
            return new ChunkSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }

    /** A list type whose serializer is a {@link ChunkSerializer}. */
    private static final class ChunkTypeInfo<T> extends ListTypeInfo<T> {
        private static final long serialVersionUID = 1L;

        ChunkTypeInfo(TypeInformation<T> element) {
            super(element);
        }

        @Override
        public TypeSerializer<List<T>> createSerializer(SerializerConfig config) {
            return new ChunkSerializer<>(getElementTypeInfo().createSerializer(config));
        }

        @Override
        public String toString() {
            return "Chunk<" + getElementTypeInfo() + ">";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ChunkTypeInfo && super.equals(o);
        }

        @Override
        public int hashCode() {
            return super.hashCode() * 31 + 7;
        }

        @Override
        public boolean canEqual(Object o) {
            return o instanceof ChunkTypeInfo;
        }
    }
}
