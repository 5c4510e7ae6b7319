package io.pushline.longconn;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.longconn.LongconnAction;
import io.pushline.schema.longconn.LongconnEvent;
import java.time.Duration;
import java.util.Comparator;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The ack tracker's topology, shared by the streaming job and {@code pushline longconn replay}:
 * events with event time assigned, keyed by deviceId, through one {@link AckTracker}.
 */
public final class Tracking {
    private Tracking() {}

    /**
     * The order in which actions happen: by time; at equal times, those an input event caused (in
     * the events' order) before retries, and retries by msgId, then deviceId.
     */
    public static final Comparator<LongconnAction> ORDER =
            Comparator.<LongconnAction>comparingLong(x -> x.ts)
                    .thenComparing(x -> x.fromTimer)
                    .thenComparingLong(x -> x.fromTimer ? 0 : x.seq)
                    .thenComparing(x -> x.msgId)
                    .thenComparing(x -> x.deviceId);

    /** The tracker's actions and its dead letters. */
    public record Streams(DataStream<LongconnAction> actions, DataStream<DeadLetter> deadLetters) {}

    public static Streams build(
            DataStream<LongconnEvent> events,
            AckRules rules,
            Duration stateTtl,
            int maxParallelism) {
        SingleOutputStreamOperator<LongconnAction> actions =
                events.keyBy(e -> e.deviceId)
                        .transform(
                                "Long-connection ack tracker",
                                TypeInformation.of(LongconnAction.class),
                                new AckTracker(rules, stateTtl))
                        .uid("longconn-tracker")
                        .setMaxParallelism(maxParallelism);
        return new Streams(actions, actions.getSideOutput(DispatchTags.DEAD_LETTERS));
    }
}
