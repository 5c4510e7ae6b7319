package io.pushline.bench;

import io.pushline.cluster.FlinkRest;
import java.util.List;

/**
 * What a dispatch job holds while a campaign stands still: the gauges that say where a campaign's
 * devices wait (expander, dictionary, scheduler, pacer queues), each stage's output count and
 * watermarks, read from the JobManager's REST API and printed.
 */
final class JobStandstill {
    static final List<String> METRICS =
            List.of(
                    "campaignsRunning",
                    "campaignIdsPending",
                    "campaignsWaitingForStore",
                    "expansionPaused",
                    "expansionRateLimit",
                    "audienceIds",
                    "audienceUids",
                    "chunksWaitingForDictionary",
                    "releaseQueue",
                    ".backlog",
                    ".rate",
                    "numRecordsOut",
                    "currentInputWatermark",
                    "currentOutputWatermark");

    private JobStandstill() {}

    static void print(FlinkRest rest, String jobId) {
        System.out.println("  no campaign send for a minute; the job's state now:");
        try {
            rest.metrics(jobId, METRICS)
                    .forEach(
                            (chain, values) -> {
                                System.out.println("    " + chain);
                                values.forEach(v -> System.out.println("      " + v));
                            });
        } catch (Exception e) {
            System.out.println("    (the job's metrics could not be read: " + e + ")");
        }
    }
}
