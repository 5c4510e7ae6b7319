package io.pushline.schema.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Decision;
import io.pushline.schema.DecisionSerializer;
import io.pushline.schema.DropReason;
import io.pushline.schema.PushRequest;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class GateStateSerializerTest {
    static final long T = 1_767_225_600_123L;

    @Test
    void flinkUsesTheCompactSerializers() {
        assertThat(TypeInformation.of(GateState.class).createSerializer(null))
                .isSameAs(GateStateSerializer.INSTANCE);
        assertThat(TypeInformation.of(Decision.class).createSerializer(null))
                .isSameAs(DecisionSerializer.INSTANCE);
    }

    @Test
    void anEmptyStateIsOneByte() throws Exception {
        GateState back = roundTrip(new GateState(), 1);
        assertThat(back.isEmpty()).isTrue();
        assertThat(back.lastCountedPass).isEqualTo(Long.MIN_VALUE);
        assertThat(back.day).isEqualTo(Integer.MIN_VALUE);
    }

    @Test
    void everyFieldComesBackExactly() throws Exception {
        GateState s = new GateState();
        s.lastCountedPass = T;
        // a local day ahead of the UTC day of the last pass
        s.day = (int) (T / 86_400_000L) + 1;
        s.dayCount = 4;
        s.putWindow("news", T - 3_599_999L, 2);
        s.putWindow("album_update", T, 1);
        // a whitelisted pass after the last counted one: a negative distance
        s.addSeen(-5L, Integer.MAX_VALUE, T + 1_000L);
        s.addSeen(Integer.MIN_VALUE, 7L, T - 86_399_999L);
        s.passes = 300;
        GateState back = roundTrip(s, -1);
        assertThat(back).usingRecursiveComparison().isEqualTo(s);
        assertThat(back.seen).containsExactly(s.seen);
    }

    @Test
    void wideHashesKeepAllSixtyFourBits() throws Exception {
        GateState s = new GateState();
        s.addSeen(0x1234_5678_9abc_def0L, -2L, T);
        GateState back = roundTrip(s, -1);
        assertThat(back.seen).containsExactly(0x1234_5678_9abc_def0L, -2L, T);
    }

    @Test
    void narrowHashesAreStoredInFourBytes() throws Exception {
        GateState s = new GateState();
        s.lastCountedPass = T;
        s.addSeen(12345L, -6789L, T);
        // flags, last pass (6), count, two ints, distance 0
        assertThat(roundTrip(s, -1).seen).containsExactly(12345L, -6789L, T);
        assertThat(size(s)).isEqualTo(1 + 6 + 1 + 8 + 1);
    }

    @Test
    void stateWrittenBeforePassesReadsAsItIsWithNone() throws Exception {
        GateState s = new GateState();
        s.lastCountedPass = T;
        s.day = 20_454;
        s.dayCount = 3;
        s.addSeen(12345L, -6789L, T);
        DataOutputSerializer out = new DataOutputSerializer(64);
        GateStateSerializer.INSTANCE.serialize(s, out);
        // what the version before passes wrote: the same bytes, as the flag is absent
        assertThat(out.getCopyOfBuffer()[0] & 32).isZero();
        s.passes = 2;
        assertThat(size(s)).isEqualTo(out.length() + 1);

        GateState back =
                GateStateSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back.passes).isZero();
        assertThat(back.dayCount).isEqualTo(3);
    }

    @Test
    void snapshotsOfTheFormBeforePassesAreUsedAsTheyAreAndNewerOnesRefused() throws Exception {
        var current = GateStateSerializer.INSTANCE.snapshotConfiguration();
        assertThat(current.getCurrentVersion()).isEqualTo(GateStateSerializer.PASSES_VERSION);

        var before = new GateStateSerializer.Snapshot();
        before.readSnapshot(2, new DataInputDeserializer(new byte[0]), null);
        assertThat(current.resolveSchemaCompatibility(before).isCompatibleAsIs()).isTrue();
        assertThat(before.restoreSerializer()).isEqualTo(GateStateSerializer.INSTANCE);

        var stringValueForm = new GateStateSerializer.Snapshot();
        stringValueForm.readSnapshot(1, new DataInputDeserializer(new byte[0]), null);
        assertThat(current.resolveSchemaCompatibility(stringValueForm).isCompatibleAfterMigration())
                .isTrue();

        var newer = new GateStateSerializer.Snapshot();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> newer.readSnapshot(4, new DataInputDeserializer(new byte[0]), null))
                .hasMessageContaining("snapshot version 4")
                .hasMessageContaining("newer Pushline");
    }

    @Test
    void aCopyDoesNotShareArrays() {
        GateState s = new GateState();
        s.putWindow("news", T, 1);
        GateState c = GateStateSerializer.INSTANCE.copy(s);
        c.windowCounts[0]++;
        assertThat(s.windowCounts[0]).isEqualTo(1);
    }

    @Test
    void decisionsRoundTrip() throws Exception {
        PushRequest p = new PushRequest();
        p.msgId = "m1";
        p.msgType = "news";
        p.ts = T;
        p.seq = 42;
        Decision pass = Decision.pass(p, "u1", "d1", "fcm");
        Decision drop = Decision.drop(p, "u1", "d1", DropReason.QUIET_HOURS);
        Decision odd = new Decision();
        odd.decision = "HOLD";
        for (Decision d : new Decision[] {pass, drop, odd, new Decision()}) {
            TypeSerializer<Decision> s = DecisionSerializer.INSTANCE;
            DataOutputSerializer out = new DataOutputSerializer(64);
            s.serialize(d, out);
            Decision back = s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
            assertThat(back).usingRecursiveComparison().isEqualTo(d);
            assertThat(s.copy(d)).usingRecursiveComparison().isEqualTo(d).isNotSameAs(d);
        }
    }

    private static int size(GateState s) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        GateStateSerializer.INSTANCE.serialize(s, out);
        return out.length();
    }

    private static GateState roundTrip(GateState s, int expectedSize) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        GateStateSerializer.INSTANCE.serialize(s, out);
        if (expectedSize >= 0) {
            assertThat(out.length()).isEqualTo(expectedSize);
        }
        return GateStateSerializer.INSTANCE.deserialize(
                new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
