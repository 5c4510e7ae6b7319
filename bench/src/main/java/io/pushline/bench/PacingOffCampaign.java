package io.pushline.bench;

import io.pushline.schema.Topics;
import java.time.Duration;
import java.util.List;

/**
 * Phase 2 of {@code bench latency}: pacing off, how fast a campaign goes end to end, from its
 * request to its last send visible to a read_committed reader, with CPU, checkpoints and each
 * operator's load. A fresh job reads the binds again; the request and reminder topics start empty.
 */
final class PacingOffCampaign {
    private PacingOffCampaign() {}

    /**
     * Runs the phase and returns the campaign's devices per second; the request and reminder topics
     * are emptied first, so phase 1's requests are not resent nor its reminder task fired again.
     * With {@code warmUp}, an untimed campaign and the JIT's settling come before the timed one.
     */
    static double run(
            LatencyTarget target,
            VisibleSends seen,
            BenchResults results,
            int devices,
            boolean warmUp)
            throws Exception {
        String kafka = target.kafka();
        target.recreate(
                List.of(
                        Topics.PUSH_REQUESTS,
                        Topics.REMINDER_TASKS,
                        Topics.REMINDER_SUBSCRIPTIONS));
        LatencyTarget.Job job2 = target.start(false, "lat-2");
        int rest2 = job2.rest();
        long loaded2 = LatencyJob.marker(kafka, seen, "marker-2", 0);
        System.out.printf("  phase 2: binds loaded again in %.1f s%n", loaded2 / 1e3);
        // A fresh job mirrors every binding to HBase again; a campaign is timed once
        // that is done, not while its writes share the machine with the campaign.
        LatencyJob.settled(rest2, job2.id());
        if (warmUp) {
            // no phase before it compiled the campaign's code: one campaign untimed, so the timed
            // one runs on code as warm as in a whole round (and in a TaskManager up for a while)
            long w = LatencyJob.request(kafka, "campaign-warm", "{\"audience\":\"everyone\"}", 1);
            seen.await("campaign-warm", devices, Duration.ofMinutes(20));
            System.out.printf(
                    "  warm-up campaign visible in %.1f s%n",
                    (System.currentTimeMillis() - w) / 1e3);
            target.warmUp();
        }
        long c2At = LatencyJob.request(kafka, "campaign-2", "{\"audience\":\"everyone\"}", 1);
        ProcessCpu cpu2 = target.cpu();
        OperatorLoad load2 = new OperatorLoad(rest2, job2.id());
        load2.start();
        long c2Done = seen.await("campaign-2", devices, Duration.ofMinutes(20));
        String busy2 = load2.finish();
        double cores2 = cpu2.cores();
        // for matching a profile of the run to this phase
        System.out.printf("  phase 2 campaign window (epoch ms): %d %d%n", c2At, c2Done);
        CheckpointStats cp2 = CheckpointStats.read(rest2, job2.id());
        String during = CheckpointStats.within(rest2, job2.id(), c2At, c2Done);
        job2.cancel().close();
        double rate = seen.count("campaign-2") / ((c2Done - c2At) / 1e3);
        System.out.printf(
                "Phase 2 (pacing off): campaign of %,d devices, last send visible %.1f s"
                        + " after its request = %,.0f devices/s%n",
                devices, (c2Done - c2At) / 1e3, rate);
        System.out.println("  checkpoints completed during the campaign: " + during);
        System.out.printf(
                "  half visible after %.1f s, nine tenths after %.1f s%n",
                seen.halfAt == 0 ? -1 : (seen.halfAt - c2At) / 1e3,
                seen.ninetyAt == 0 ? -1 : (seen.ninetyAt - c2At) / 1e3);
        System.out.printf("  %.2f cores busy; checkpoints of the whole run: %s%n", cores2, cp2);
        System.out.println("  busy/backpressured ms per s (busiest subtask): " + busy2);
        results.put("campaignCheckpoints", cp2.toString());
        results.put("campaignCoresBusy", Math.round(cores2 * 100) / 100.0);
        return rate;
    }
}
