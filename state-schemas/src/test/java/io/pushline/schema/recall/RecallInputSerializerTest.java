package io.pushline.schema.recall;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class RecallInputSerializerTest {
    private final TypeSerializer<RecallInput> serializer =
            TypeInformation.of(RecallInput.class).createSerializer(new SerializerConfigImpl());

    @Test
    void flinkPicksTheCompactSerializerForRecallInput() {
        assertThat(serializer).isSameAs(RecallInputSerializer.INSTANCE);
    }

    @Test
    void everyShapeRoundTripsAndCopiesDeeply() throws Exception {
        RecallInput profile = new RecallInput();
        profile.uid = "u1";
        profile.kind = RecallInput.PROFILE;
        profile.tz = "Asia/Tokyo";
        profile.tags = new String[] {"sports", "music"};
        profile.weights = new double[] {0.5, 0.25};
        RecallInput pushed = new RecallInput();
        pushed.uid = "u2";
        pushed.kind = RecallInput.PUSHED;
        pushed.itemId = "item7";
        pushed.ts = 1_767_225_600_000L;
        RecallInput odd = new RecallInput();
        odd.kind = "liked"; // not one of the coded kinds: written as text
        odd.tags = new String[0];
        RecallInput empty = new RecallInput();

        for (RecallInput r : new RecallInput[] {profile, pushed, odd, empty}) {
            DataOutputSerializer out = new DataOutputSerializer(64);
            serializer.serialize(r, out);
            RecallInput back =
                    serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertThat(back).usingRecursiveComparison().isEqualTo(r);

            DataOutputSerializer copied = new DataOutputSerializer(64);
            serializer.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
            assertThat(copied.getCopyOfBuffer()).isEqualTo(out.getCopyOfBuffer());
            assertThat(serializer.copy(r)).usingRecursiveComparison().isEqualTo(r);
        }
        RecallInput copy = serializer.copy(profile);
        copy.tags[0] = "changed";
        assertThat(profile.tags[0]).isEqualTo("sports");
    }

    @Test
    void theSnapshotRestoresTheSameSerializer() {
        assertThat(serializer.snapshotConfiguration().restoreSerializer())
                .isSameAs(RecallInputSerializer.INSTANCE);
    }
}
