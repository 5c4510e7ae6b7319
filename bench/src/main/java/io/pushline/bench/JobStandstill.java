package io.pushline.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.cluster.FlinkRest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    static void print(FlinkRest rest, String jobId, String why) {
        System.out.println("  " + why + "; the job's state now:");
        try {
            for (FlinkRest.Job j : rest.jobs()) {
                if (j.id().equals(jobId)) {
                    System.out.println("    job " + j.state());
                }
            }
            JsonNode stats = rest.checkpoints(jobId);
            System.out.println("    checkpoints " + checkpoints(stats));
            for (JsonNode c : stats.path("history")) {
                if ("IN_PROGRESS".equals(c.path("status").asText())) {
                    unacknowledged(rest, jobId, c.path("id").asLong())
                            .forEach(v -> System.out.println("      not acknowledged: " + v));
                }
            }
        } catch (Exception e) {
            System.out.println("    (the job's checkpoints could not be read: " + e + ")");
        }
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

    /** Counts, the latest completed and any in progress with how many subtasks acknowledged. */
    static String checkpoints(JsonNode stats) {
        JsonNode counts = stats.path("counts");
        StringBuilder out =
                new StringBuilder(
                        String.format(
                                "completed %d, failed %d, in progress %d",
                                counts.path("completed").asLong(),
                                counts.path("failed").asLong(),
                                counts.path("in_progress").asLong()));
        JsonNode done = stats.path("latest").path("completed");
        if (!done.isMissingNode() && !done.isNull()) {
            out.append(
                    String.format(
                            "; latest completed %d at %s",
                            done.path("id").asLong(),
                            Instant.ofEpochMilli(done.path("latest_ack_timestamp").asLong())));
        }
        for (JsonNode c : stats.path("history")) {
            if ("IN_PROGRESS".equals(c.path("status").asText())) {
                out.append(
                        String.format(
                                "; %d in progress since %s, %d of %d subtasks acknowledged",
                                c.path("id").asLong(),
                                Instant.ofEpochMilli(c.path("trigger_timestamp").asLong()),
                                c.path("num_acknowledged_subtasks").asLong(),
                                c.path("num_subtasks").asLong()));
            }
        }
        return out.toString();
    }

    /** The chains of which some subtask has not acknowledged checkpoint {@code id}. */
    private static List<String> unacknowledged(FlinkRest rest, String jobId, long id)
            throws java.io.IOException {
        Map<String, String> names = new HashMap<>();
        for (JsonNode v : rest.get("/jobs/" + jobId).path("vertices")) {
            names.put(v.path("id").asText(), v.path("name").asText());
        }
        List<String> out = new ArrayList<>();
        JsonNode tasks = rest.get("/jobs/" + jobId + "/checkpoints/details/" + id).path("tasks");
        tasks.fields()
                .forEachRemaining(
                        t -> {
                            long acked = t.getValue().path("num_acknowledged_subtasks").asLong();
                            long all = t.getValue().path("num_subtasks").asLong();
                            if (acked < all) {
                                out.add(
                                        names.getOrDefault(t.getKey(), t.getKey())
                                                + " "
                                                + acked
                                                + "/"
                                                + all);
                            }
                        });
        return out;
    }
}
