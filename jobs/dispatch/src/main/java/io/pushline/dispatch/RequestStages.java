package io.pushline.dispatch;

import io.pushline.schema.ParsedRecord;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * Requests and device events in: split by what they target (devices, uids, an audience, reminders,
 * inboxes), and requests with an {@code at} held until their time by the {@link Scheduler}, then
 * routed as the split routes them.
 */
final class RequestStages {
    private final SingleOutputStreamOperator<RegistryInput> split;
    private final SingleOutputStreamOperator<RegistryInput> released;

    private RequestStages(
            SingleOutputStreamOperator<RegistryInput> split,
            SingleOutputStreamOperator<RegistryInput> released) {
        this.split = split;
        this.released = released;
    }

    static RequestStages wire(
            DataStream<ParsedRecord> input,
            GateSettings gate,
            boolean campaigns,
            int chunkListsOver,
            int releaseRate,
            int maxParallelism) {
        SingleOutputStreamOperator<RegistryInput> split =
                input.process(
                                new SplitInput(
                                                campaigns,
                                                gate.maxScheduleAhead,
                                                gate.maxFuture,
                                                gate.maxPast)
                                        .chunkListsOver(chunkListsOver))
                        .uid("split-input")
                        .name("Split input");
        SingleOutputStreamOperator<RegistryInput> released =
                split.getSideOutput(DispatchTags.SCHEDULED)
                        .keyBy(r -> r.request.msgId)
                        .process(new Scheduler(campaigns, chunkListsOver, releaseRate))
                        .uid("scheduler")
                        .name("Hold scheduled requests")
                        .setMaxParallelism(maxParallelism);
        return new RequestStages(split, released);
    }

    /** Device events and requests to devices, for the registry (keyed by device). */
    DataStream<RegistryInput> toDevices() {
        return split.union(released);
    }

    /** What both the split and the scheduler put on {@code tag}. */
    <T> DataStream<T> routed(OutputTag<T> tag) {
        return split.getSideOutput(tag).union(released.getSideOutput(tag));
    }

    /** What only the split puts on {@code tag} (reminder events, pacer reports). */
    <T> DataStream<T> split(OutputTag<T> tag) {
        return split.getSideOutput(tag);
    }
}
