package io.pushline.dispatch;

import io.pushline.dispatch.pacing.StatusReports;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.pacing.PacingStatus;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * Requests and device events in: split by what they target (devices, uids, an audience, reminders,
 * inboxes), and requests with an {@code at} held until their time by the {@link Scheduler}, then
 * routed as the split routes them. The vendor pacers' reports ({@link #backlogs}) are read here
 * too: the scheduler's release rate follows them, as campaign expansion does.
 */
final class RequestStages {
    private final SingleOutputStreamOperator<RegistryInput> split;
    private final SingleOutputStreamOperator<RegistryInput> released;
    private final DataStream<PacingStatus> backlogs;

    private RequestStages(
            SingleOutputStreamOperator<RegistryInput> split,
            SingleOutputStreamOperator<RegistryInput> released,
            DataStream<PacingStatus> backlogs) {
        this.split = split;
        this.released = released;
        this.backlogs = backlogs;
    }

    /**
     * @param pacingReports the pacers' reports as read from push.pacing; null: the split's (a
     *     stream that never carries any)
     * @param targetDelayMs with a release rate: the queue before the pacers the scheduler's rate
     *     aims at (see {@link Scheduler}); 0: the fixed rate alone
     */
    static RequestStages wire(
            DataStream<ParsedRecord> input,
            DataStream<String> pacingReports,
            GateSettings gate,
            boolean campaigns,
            int chunkListsOver,
            int releaseRate,
            long targetDelayMs,
            DeadLetters deadLetters,
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
        DataStream<PacingStatus> backlogs = split.getSideOutput(DispatchTags.PACING_STATUS);
        if (pacingReports != null) {
            SingleOutputStreamOperator<PacingStatus> reports =
                    pacingReports
                            .process(new StatusReports())
                            .uid("pacing-reports")
                            .name("Pacing reports")
                            .setParallelism(1);
            backlogs = reports;
            deadLetters.of(reports);
        }
        Scheduler scheduler = new Scheduler(campaigns, chunkListsOver, releaseRate, targetDelayMs);
        SingleOutputStreamOperator<RegistryInput> released =
                releaseRate > 0 && targetDelayMs > 0
                        ? split.getSideOutput(DispatchTags.SCHEDULED)
                                .keyBy(r -> r.request.msgId)
                                .connect(backlogs.broadcast())
                                .transform(
                                        "Hold scheduled requests",
                                        TypeInformation.of(RegistryInput.class),
                                        new AdaptiveScheduleOperator(scheduler))
                        : split.getSideOutput(DispatchTags.SCHEDULED)
                                .keyBy(r -> r.request.msgId)
                                .process(scheduler)
                                .name("Hold scheduled requests");
        released.uid("scheduler").setMaxParallelism(maxParallelism);
        return new RequestStages(split, released, backlogs);
    }

    /** The vendor pacers' reports: from push.pacing, or the split's. */
    DataStream<PacingStatus> backlogs() {
        return backlogs;
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
