package io.pushline.cli;

import io.pushline.dispatch.DispatchOptions;
import io.pushline.gateway.GatewayOptions;
import io.pushline.longconn.LongconnOptions;
import io.pushline.recall.RecallOptions;
import io.pushline.receipts.ReceiptsOptions;
import io.pushline.schedule.ScheduleOptions;
import io.pushline.segments.SegmentsOptions;
import io.pushline.sendtime.SendTimeOptions;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;

/**
 * Every job with its options, in one list: {@code help options} prints it, and the tests check the
 * prefixes and the k8s manifests' arguments against it.
 *
 * @param prefix the start of every key of {@code own}
 * @param own the job's own options (not the common ones)
 * @param accepted everything the job's command line accepts
 */
record JobOptions(
        String title,
        String entryClass,
        String prefix,
        List<ConfigOption<?>> own,
        List<ConfigOption<?>> accepted) {
    static final List<JobOptions> ALL =
            List.of(
                    new JobOptions(
                            "Dispatch job (`dispatch`)",
                            "io.pushline.dispatch.DispatchJob",
                            "dispatch.",
                            DispatchOptions.own(),
                            DispatchOptions.accepted()),
                    new JobOptions(
                            "Receipts job (`receipts`)",
                            "io.pushline.receipts.ReceiptsJob",
                            "receipts.",
                            ReceiptsOptions.own(),
                            ReceiptsOptions.accepted()),
                    new JobOptions(
                            "Long-connection job (`longconn`)",
                            "io.pushline.longconn.LongconnJob",
                            "longconn.",
                            LongconnOptions.own(),
                            LongconnOptions.accepted()),
                    new JobOptions(
                            "Gateway job (`gateway`)",
                            "io.pushline.gateway.GatewayJob",
                            "gateway.",
                            GatewayOptions.own(),
                            GatewayOptions.accepted()),
                    new JobOptions(
                            "Segment build (`audience build`, SegmentsJob)",
                            "io.pushline.segments.SegmentsJob",
                            "segments.",
                            SegmentsOptions.own(),
                            SegmentsOptions.accepted()),
                    new JobOptions(
                            "Send-time job (SendTimeJob)",
                            "io.pushline.sendtime.SendTimeJob",
                            "sendtime.",
                            SendTimeOptions.own(),
                            SendTimeOptions.accepted()),
                    new JobOptions(
                            "Recall job (RecallJob)",
                            "io.pushline.recall.RecallJob",
                            "recall.",
                            RecallOptions.own(),
                            RecallOptions.accepted()),
                    new JobOptions(
                            "Nightly job (NightlyJob; also the send-time and recall options above"
                                    + " except their dates)",
                            "io.pushline.schedule.NightlyJob",
                            "schedule.",
                            ScheduleOptions.nightlyOwn(),
                            ScheduleOptions.nightly()),
                    new JobOptions(
                            "Schedule feed (ScheduleFeedJob)",
                            "io.pushline.schedule.ScheduleFeedJob",
                            "schedule.",
                            ScheduleOptions.feedOwn(),
                            ScheduleOptions.feed()));
}
