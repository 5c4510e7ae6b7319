package io.pushline.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.schema.gate.SpilledPush;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class ChunkSerializerTest {
    private static final TypeSerializer<List<SpilledPush>> S =
            ChunkSerializer.typeOf(TypeInformation.of(SpilledPush.class))
                    .createSerializer(new SerializerConfigImpl());

    private static List<SpilledPush> places(int n) {
        List<SpilledPush> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new SpilledPush("d" + i, 1_000L * i, i, 7L * i));
        }
        return out;
    }

    @Test
    void chunksRoundTripAndStreamOneAfterAnother() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(16);
        S.serialize(places(3000), out);
        S.serialize(places(0), out);
        S.serialize(places(1), out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        assertThat(S.deserialize(in)).usingRecursiveComparison().isEqualTo(places(3000));
        assertThat(S.deserialize(in)).isEmpty();
        assertThat(S.deserialize(in)).usingRecursiveComparison().isEqualTo(places(1));
        assertThat(in.available()).isZero();
    }

    @Test
    void aCopyIsDeepAndCopyingBytesKeepsThem() throws Exception {
        List<SpilledPush> chunk = places(5);
        List<SpilledPush> copy = S.copy(chunk);
        assertThat(copy).usingRecursiveComparison().isEqualTo(chunk);
        assertThat(copy.get(0)).isNotSameAs(chunk.get(0));

        DataOutputSerializer out = new DataOutputSerializer(16);
        S.serialize(chunk, out);
        DataOutputSerializer copied = new DataOutputSerializer(16);
        S.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(out.getCopyOfBuffer());
    }

    @Test
    void itsSnapshotRestoresAnEqualSerializerThatIsCompatibleAsIs() throws Exception {
        TypeSerializerSnapshot<List<SpilledPush>> snapshot = S.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, snapshot);
        TypeSerializerSnapshot<List<SpilledPush>> read =
                TypeSerializerSnapshot.readVersionedSnapshot(
                        new DataInputDeserializer(out.getCopyOfBuffer()),
                        getClass().getClassLoader());
        assertThat(read.restoreSerializer()).isEqualTo(S);
        TypeSerializerSchemaCompatibility<List<SpilledPush>> c =
                S.snapshotConfiguration().resolveSchemaCompatibility(read);
        assertThat(c.isCompatibleAsIs()).isTrue();
    }

    @Test
    void aDamagedLengthIsAnIoErrorNotAHugeArray() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(16);
        out.writeInt(8);
        out.writeInt(Integer.MAX_VALUE);
        out.writeInt(0);
        assertThatThrownBy(() -> S.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("claims");
    }
}
