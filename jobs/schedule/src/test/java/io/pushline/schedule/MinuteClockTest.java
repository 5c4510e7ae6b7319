package io.pushline.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

class MinuteClockTest {

    @Test
    void withoutTheClockItEmitsEveryStepOfTheRangeAtOnceAndEnds() throws Exception {
        assertThat(run(new MinuteClock(1_000, 1_010, 0, false, 3)))
                .containsExactly(1_000L, 1_003L, 1_006L, 1_009L);
    }

    @Test
    void followingTheClockMinutesAlreadyDueComeAtOnce() throws Exception {
        long now = System.currentTimeMillis() / 60_000L;
        // minutes from five ago up to the next one, with a lead of two minutes: all due
        assertThat(run(new MinuteClock(now - 5, now + 2, 120_000, true, 1)))
                .containsExactly(now - 5, now - 4, now - 3, now - 2, now - 1, now, now + 1);
    }

    @Test
    void boundedOnlyWithAnEnd() {
        assertThat(new MinuteClock(0, Long.MAX_VALUE, 0, true, 1).getBoundedness())
                .isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(new MinuteClock(0, 10, 0, true, 1).getBoundedness())
                .isEqualTo(Boundedness.BOUNDED);
    }

    @Test
    void theCheckpointedPositionSurvivesSerialization() throws Exception {
        MinuteClock clock = new MinuteClock(0, 10, 0, false, 1);
        SimpleVersionedSerializer<MinuteClock.Split> splits = clock.getSplitSerializer();
        MinuteClock.Split back =
                splits.deserialize(
                        splits.getVersion(), splits.serialize(new MinuteClock.Split(29_000_123L)));
        assertThat(back.next).isEqualTo(29_000_123L);
        SimpleVersionedSerializer<List<MinuteClock.Split>> pending =
                clock.getEnumeratorCheckpointSerializer();
        List<MinuteClock.Split> list =
                pending.deserialize(
                        pending.getVersion(),
                        pending.serialize(
                                List.of(new MinuteClock.Split(7), new MinuteClock.Split(9))));
        assertThat(list).extracting(s -> s.next).containsExactly(7L, 9L);
    }

    private static List<Long> run(MinuteClock clock) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        return env.fromSource(clock, WatermarkStrategy.noWatermarks(), "clock", Types.LONG)
                .executeAndCollect(100);
    }
}
