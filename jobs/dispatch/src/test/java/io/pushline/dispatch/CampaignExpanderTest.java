package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.Audiences;
import io.pushline.audience.FolderAudiences;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.pacing.PacingStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.streaming.util.TwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CampaignExpanderTest {
    @TempDir Path dir;
    private Audiences.Factory audiences;

    @BeforeEach
    void segments() throws IOException {
        // a = u000..u099, b = u050..u149: "a AND NOT b" is u000..u049.
        write("a", 0, 100);
        write("b", 50, 150);
        audiences = FolderAudiences.factory(dir, null);
    }

    @Test
    void expandsTheAudienceInChunksAndHoldsTheWatermarkUntilTheLastOne() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 7, 0))) {
            h.processElement1(campaign("m1", "a AND NOT b", 1_000), 1_000);
            h.processWatermark1(new Watermark(5_000));
            assertThat(watermarks(h)).allMatch(w -> w < 1_000);

            h.setProcessingTime(1); // runs the expansion steps
            List<AudienceChunk> chunks = chunks(h);
            assertThat(chunks).hasSize(8); // 50 ids: 7 chunks of 7, one of 1
            assertThat(chunks).extracting(c -> c.index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
            assertThat(chunks).allMatch(c -> c.request.ts == 1_000 && c.request.target == null);
            assertThat(uids(chunks)).isEqualTo(range(0, 50));
            assertThat(watermarks(h)).contains(5_000L);
            assertThat(h.getSideOutput(DispatchTags.DEAD_LETTERS)).isNull();
        }
    }

    /** A long list goes in chunks, once per listed uid, in its order, without the store. */
    @Test
    void aLongUidListGoesInChunksOfItsListedUidsOnceEach() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 4, 0))) {
            List<String> listed = new ArrayList<>(range(0, 10));
            listed.add("u003"); // listed twice: decided once
            h.processElement1(list("l1", Target.ofUids(listed), 1_000), 1_000);
            h.processWatermark1(new Watermark(5_000));
            assertThat(watermarks(h)).allMatch(w -> w < 1_000);

            h.setProcessingTime(1);
            List<AudienceChunk> chunks = chunks(h);
            assertThat(chunks).extracting(c -> c.uids.length).containsExactly(4, 4, 2);
            assertThat(chunks).allMatch(c -> c.devices == null && c.ids.length == 0);
            assertThat(chunks.stream().flatMap(c -> java.util.Arrays.stream(c.uids)).toList())
                    .isEqualTo(range(0, 10));
            assertThat(chunks).allMatch(c -> c.request.ts == 1_000 && c.request.target == null);
            assertThat(watermarks(h)).contains(5_000L);
        }
    }

    /** A device list's chunks carry devices; a restore resumes after the last checkpointed one. */
    @Test
    void aLongDeviceListResumesAfterTheLastCheckpointedChunk() throws Exception {
        List<String> devices = IntStream.range(0, 30).mapToObj(i -> "d" + i).toList();
        List<AudienceChunk> before;
        OperatorSubtaskState snapshot;
        // 10 per chunk at 10,000 ids/s: one chunk per millisecond of processing time
        try (var h = harness(new CampaignExpander(audiences, 10, 10_000))) {
            h.processElement1(list("l2", Target.ofDevices(devices), 1_000), 1_000);
            h.setProcessingTime(1);
            before = chunks(h);
            snapshot = h.snapshot(1, 1);
            advance(h, 2, 5); // emitted after the checkpoint: lost with the failure
        }
        assertThat(before).hasSize(1);
        List<AudienceChunk> after;
        try (var h = restored(new CampaignExpander(audiences, 10, 10_000), snapshot)) {
            advance(h, 1, 100);
            after = chunks(h);
        }
        List<AudienceChunk> all = new ArrayList<>(before);
        all.addAll(after);
        assertThat(all).allMatch(c -> c.uids == null);
        assertThat(all.stream().flatMap(c -> java.util.Arrays.stream(c.devices)).toList())
                .isEqualTo(devices);
        assertThat(all).extracting(c -> c.index).containsExactly(0, 1, 2);
    }

    /** Without the hold, a list's chunks are stamped at the watermark, as a campaign's are. */
    @Test
    void withoutTheHoldAListsChunksAreDecidedWhenTheyAreExpanded() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 5, 0, 0, false))) {
            h.processWatermark1(new Watermark(7_000));
            h.processElement1(list("l3", Target.ofUids(range(0, 10)), 1_000), 1_000);
            h.setProcessingTime(1);
            assertThat(chunks(h)).hasSize(2).allMatch(c -> c.request.ts == 7_001);
        }
    }

    /** A higher level overtakes a bulk campaign that started before it, chunk by chunk. */
    @Test
    void aHigherLevelListOvertakesARunningBulkCampaign() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 10, 0, 0, false))) {
            ParsedRecord bulk = campaign("bulk", "a OR b", 1_000); // 150 ids, level 1
            bulk.request.maxRate = 10_000; // its own rate: a chunk of 10 per millisecond
            h.processElement1(bulk, 1_000);
            advance(h, 1, 2);
            ParsedRecord live = list("live", Target.ofUids(range(0, 30)), 1_001);
            live.request.level = 3;
            h.processElement1(live, 1_001);
            advance(h, 3, 100);
            List<String> order = chunks(h).stream().map(c -> c.request.msgId).toList();
            assertThat(order.subList(0, 2)).containsOnly("bulk");
            assertThat(order.subList(2, 5)).containsOnly("live");
            assertThat(order.subList(5, order.size())).hasSize(13).containsOnly("bulk");
        }
    }

    @Test
    void anIdleInputLeavesTheOutputActiveUntilTheCampaignIsOut() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 10, 10_000))) {
            h.processElement1(campaign("m6", "a", 1_000), 1_000);
            h.processWatermarkStatus1(WatermarkStatus.IDLE);
            assertThat(h.getOutput()).noneMatch(o -> o instanceof WatermarkStatus);
            advance(h, 1, 20);
            assertThat(chunks(h)).hasSize(10);
            assertThat(h.getOutput().stream().filter(o -> o instanceof WatermarkStatus))
                    .containsExactly(WatermarkStatus.IDLE);
        }
    }

    @Test
    void aCampaignsOwnMaxRateSpreadsItsAudienceOverTime() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 50, 0))) {
            ParsedRecord c = campaign("m7", "a", 1_000);
            c.request.maxRate = 100; // 100 ids: chunks of 10 every 100 ms
            h.processElement1(c, 1_000);
            advance(h, 1, 450);
            List<AudienceChunk> soFar = chunks(h);
            assertThat(soFar).hasSize(5).allMatch(x -> x.ids.length == 10);
            advance(h, 451, 1_000);
            assertThat(chunks(h)).hasSize(10);
            assertThat(uids(chunks(h))).isEqualTo(range(0, 100));
        }
    }

    @Test
    void expansionPausesWhileAVendorIsFarBehindAndResumesWhenItCatchesUp() throws Exception {
        // 10 ids per chunk at 10,000 ids/s: one chunk per millisecond, unless paused
        try (var h = harness(new CampaignExpander(audiences, 10, 10_000, 500, true))) {
            h.processElement1(campaign("m8", "a OR b", 1_000), 1_000);
            advance(h, 1, 3);
            assertThat(chunks(h)).hasSize(3);
            h.processElement2(PacingStatus.of("xiaomi", 501, 500, 500, 3), 3);
            h.processElement2(PacingStatus.of("fcm", 20, 10_000, 10_000, 3), 3);
            advance(h, 4, 1_000);
            assertThat(chunks(h)).hasSize(3);
            h.processElement2(PacingStatus.of("xiaomi", 499, 500, 500, 1_000), 1_000);
            advance(h, 1_001, 1_200);
            assertThat(chunks(h)).hasSize(15);
            assertThat(uids(chunks(h))).isEqualTo(range(0, 150));
        }
    }

    @Test
    void aBacklogReportThatArrivesLateStillPausesButNotForEver() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 10, 10_000, 500, true))) {
            h.processElement1(campaign("m9", "a", 1_000), 1_000);
            advance(h, 1, 8_000);
            assertThat(chunks(h)).hasSize(10); // all of "a": the pause needs a longer campaign
            h.processElement1(campaign("m9b", "a OR b", 8_000), 8_000);
            // made at 0, read at 8 s: the expander's input waited behind its blocked output
            h.processElement2(PacingStatus.of("xiaomi", 10_000, 500, 500, 0), 8_000);
            advance(h, 8_001, 59_999);
            assertThat(chunks(h)).hasSize(10);
            advance(h, 60_000, 60_200); // a minute without news: the pacer may be gone
            assertThat(chunks(h)).hasSize(25);
        }
    }

    /**
     * The pacers' queues are restored from the same checkpoint as the expander: a report that a
     * vendor was behind still holds after the restore, until a newer report says otherwise.
     */
    @Test
    void aRestoredCampaignStaysPausedWhileTheRestoredReportSaysAVendorIsBehind() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(new CampaignExpander(audiences, 10, 10_000, 500, true))) {
            h.processElement1(campaign("m14", "a OR b", 1_000), 1_000);
            advance(h, 1, 3);
            h.processElement2(PacingStatus.of("xiaomi", 10_000, 500, 500, 3), 3);
            snapshot = h.snapshot(1, 3);
        }
        try (var h = restored(new CampaignExpander(audiences, 10, 10_000, 500, true), snapshot)) {
            advance(h, 1, 1_000);
            assertThat(chunks(h)).as("paused by the restored report").isEmpty();
            h.processElement2(PacingStatus.of("xiaomi", 400, 500, 500, 1_000), 1_000);
            advance(h, 1_001, 1_100);
            assertThat(chunks(h)).hasSize(12); // the 12 chunks after the checkpoint's 3
        }
    }

    /**
     * Resumed mid-campaign without the hold, the expander starts at the rate a new campaign starts
     * at and does not grow blind while the pacers' reports have not reached it yet.
     */
    @Test
    void aCampaignResumedFromACheckpointStartsSlowlyNotUnlimited() throws Exception {
        write("c", 0, 40_000);
        audiences = FolderAudiences.factory(dir, null);
        OperatorSubtaskState snapshot;
        try (var h = harness(new CampaignExpander(audiences, 5_000, 0, 0, false, 100))) {
            h.setProcessingTime(10_000);
            h.processElement1(campaign("m15", "c", 9_900), 9_900);
            for (long t = 10_000; t < 10_200; t += 20) {
                h.processWatermark1(new Watermark(t));
                advance(h, t + 1, t + 20);
            }
            snapshot = h.snapshot(1, 10_200);
        }
        // restored ten seconds later, on the same clock
        try (var h =
                new TwoInputStreamOperatorTestHarness<>(
                        new CampaignExpander(audiences, 5_000, 0, 0, false, 100))) {
            h.setup();
            h.setProcessingTime(20_000);
            h.initializeState(snapshot);
            h.open();
            for (long t = 20_000; t < 22_000; t += 20) {
                h.processWatermark1(new Watermark(t));
                advance(h, t + 1, t + 20);
            }
            assertThat(ids(h))
                    .as("two seconds at 5,000 ids/s without a report, not the rest at once")
                    .isBetween(5_000L, 12_000L);
        }
    }

    @Test
    void withoutTheHoldEachChunkIsDecidedWhenItIsExpanded() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 10, 10_000, 0, false))) {
            h.processElement1(campaign("m10", "a", 1_000), 1_000);
            advance(h, 1, 3);
            h.processWatermark1(new Watermark(7_000));
            advance(h, 4, 20);
            List<AudienceChunk> chunks = chunks(h);
            assertThat(chunks).hasSize(10);
            assertThat(chunks.subList(0, 3)).allMatch(c -> c.request.ts == 1_000);
            assertThat(chunks.subList(3, 10)).allMatch(c -> c.request.ts == 7_001);
            assertThat(watermarks(h)).containsExactly(7_000L); // not held back
            assertThat(uids(chunks)).isEqualTo(range(0, 100));
        }
    }

    /**
     * Without the hold, a campaign must not pile up in front of the pacer, where realtime sends
     * would wait behind it: the rate starts low, is cut while the pacer's event time trails this
     * stage's by more than the target, and grows while it does not.
     */
    @Test
    void withoutTheHoldTheRateFollowsHowFarThePacerTrails() throws Exception {
        write("c", 0, 40_000);
        audiences = FolderAudiences.factory(dir, null);
        try (var h = harness(new CampaignExpander(audiences, 5_000, 0, 0, false, 200))) {
            // processing time and event time on one clock; the watermark 200 ms behind here,
            // and the pacer reporting the same: nothing queued between them
            h.setProcessingTime(10_000);
            h.processWatermark1(new Watermark(9_800));
            h.processElement2(report(10_000, 9_800), 10_000);
            h.processElement1(campaign("m11", "c", 9_900), 9_900);
            advance(h, 10_001, 11_000);
            long slowStart = ids(h);
            assertThat(slowStart)
                    .as("a slow start, not all 40,000 at once")
                    .isBetween(4_000L, 6_000L);

            // the pacer's event time 1 s behind while this stage's is 200 ms: 800 ms queued,
            // report after report (one report is no queue: the lag jitters)
            long congested = 0;
            for (long t = 11_000; t < 13_000; t += 200) {
                long at = ids(h);
                h.processWatermark1(new Watermark(t - 200));
                h.processElement2(report(t, t - 1_000), t);
                advance(h, t + 1, t + 200);
                congested = t >= 12_000 ? congested + ids(h) - at : 0;
            }
            assertThat(congested)
                    .as("cut by a third a report, after the first few")
                    .isBetween(1_000L, slowStart / 2);

            // caught up again: five reports a second, each lets it grow
            long[] perSecond = new long[3];
            for (long t = 13_000; t < 16_000; t += 200) {
                long at = ids(h);
                h.processWatermark1(new Watermark(t - 200));
                h.processElement2(report(t, t - 200), t);
                advance(h, t + 1, t + 200);
                perSecond[(int) ((t - 13_000) / 1_000)] += ids(h) - at;
            }
            assertThat(perSecond[2]).as("growing second by second").isGreaterThan(perSecond[1]);
            assertThat(perSecond[1]).as("growing second by second").isGreaterThan(perSecond[0]);
        }
    }

    /**
     * A fresh job's pacer has reported nothing yet: a campaign still starts slowly, then grows as
     * in slow start until backpressure alone limits it.
     */
    @Test
    void withNoReportYetACampaignStartsSlowlyAndGrows() throws Exception {
        write("c", 0, 40_000);
        audiences = FolderAudiences.factory(dir, null);
        try (var h = harness(new CampaignExpander(audiences, 5_000, 0, 0, false, 100))) {
            h.setProcessingTime(10_000);
            h.processElement1(campaign("m13", "c", 9_900), 9_900);
            for (long t = 10_000; t < 10_200; t += 20) {
                h.processWatermark1(new Watermark(t));
                advance(h, t + 1, t + 20);
            }
            assertThat(ids(h)).as("a fifth of a second at 5,000 ids/s").isBetween(500L, 2_000L);
            for (long t = 10_200; t < 15_000; t += 20) {
                h.processWatermark1(new Watermark(t));
                advance(h, t + 1, t + 20);
            }
            assertThat(ids(h)).as("grown: all out within five seconds").isEqualTo(40_000L);
        }
    }

    /**
     * A lag the stages have without any campaign (watermarks, checkpoints, a busy machine) is not
     * the campaign's queue: the least lag of the last minute is the base, only the excess counts.
     */
    @Test
    void aLagThatIsThereWithoutACampaignIsNotTakenForAQueue() throws Exception {
        write("c", 0, 40_000);
        audiences = FolderAudiences.factory(dir, null);
        try (var h = harness(new CampaignExpander(audiences, 5_000, 0, 0, false, 100))) {
            // the pacer trails this stage by 150 ms, campaign or not: more than the target
            for (long t = 9_000; t <= 10_000; t += 200) {
                h.setProcessingTime(t);
                h.processWatermark1(new Watermark(t - 200));
                h.processElement2(report(t, t - 350), t);
            }
            h.processElement1(campaign("m12", "c", 9_900), 9_900);
            for (long t = 10_000; t < 12_000; t += 200) {
                h.processWatermark1(new Watermark(t - 200));
                h.processElement2(report(t, t - 350), t);
                advance(h, t + 1, t + 200);
            }
            assertThat(ids(h))
                    .as("growing from 5,000 ids/s, not cut to the floor of 1,000")
                    .isGreaterThan(12_000L);

            // a real queue on top of the base is still cut
            long before = ids(h);
            for (long t = 12_000; t < 13_000; t += 200) {
                h.processWatermark1(new Watermark(t - 200));
                h.processElement2(report(t, t - 700), t);
                advance(h, t + 1, t + 200);
            }
            assertThat(ids(h) - before).as("cut while 350 ms are queued").isLessThan(before / 2);
        }
    }

    /**
     * Without the hold, chunks are stamped at the input watermark and wait for the next one in
     * every later stage: the expander emits one batch per watermark, so nothing piles up behind a
     * watermark its own output starves it of, and waits at most a second when the input is quiet.
     */
    @Test
    void withoutTheHoldOneBatchGoesOutPerInputWatermark() throws Exception {
        write("c", 0, 50_000);
        audiences = FolderAudiences.factory(dir, null);
        try (var h = harness(new CampaignExpander(audiences, 5_000, 0, 0, false))) {
            h.setProcessingTime(10_000);
            h.processWatermark1(new Watermark(9_800));
            h.processElement1(campaign("m12", "c", 9_900), 9_900);
            advance(h, 10_001, 10_500);
            assertThat(ids(h)).isEqualTo(CampaignExpander.MAX_IDS_PER_WATERMARK);
            assertThat(chunks(h)).allMatch(c -> c.request.ts == 9_900);

            h.processWatermark1(new Watermark(10_300));
            advance(h, 10_501, 10_510);
            assertThat(ids(h)).isEqualTo(2 * CampaignExpander.MAX_IDS_PER_WATERMARK);
            List<AudienceChunk> second = chunks(h).subList(4, 8);
            assertThat(second).allMatch(c -> c.request.ts == 10_301);

            // no watermark for a second: the next batch goes out anyway
            advance(h, 10_511, 11_499);
            assertThat(ids(h)).isEqualTo(2 * CampaignExpander.MAX_IDS_PER_WATERMARK);
            advance(h, 11_500, 11_520);
            assertThat(ids(h)).isEqualTo(50_000L);
            List<String> sent = uids(chunks(h));
            assertThat(sent).hasSize(50_000);
            assertThat(new HashSet<>(sent)).isEqualTo(new HashSet<>(range(0, 50_000)));
        }
    }

    private static PacingStatus report(long ts, long watermark) {
        PacingStatus s = PacingStatus.of("fcm", 0, 10_000, 10_000, ts);
        s.watermark = watermark;
        return s;
    }

    private static long ids(
            TwoInputStreamOperatorTestHarness<ParsedRecord, PacingStatus, AudienceChunk> h) {
        return chunks(h).stream().mapToLong(c -> c.ids.length).sum();
    }

    @Test
    void anUnknownSegmentSendsNothingAndIsADeadLetterWithTheColumn() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 7, 0))) {
            h.processElement1(campaign("m2", "a AND NOT c", 1_000), 1_000);
            h.processWatermark1(new Watermark(2_000));
            h.setProcessingTime(1);

            assertThat(chunks(h)).isEmpty();
            List<DeadLetter> dead =
                    h.getSideOutput(DispatchTags.DEAD_LETTERS).stream()
                            .map(StreamRecord::getValue)
                            .collect(Collectors.toList());
            assertThat(dead).hasSize(1);
            assertThat(dead.get(0).reason)
                    .isEqualTo(
                            "audience expression rejected: column 11: unknown segment 'c'"
                                    + " (did you mean 'a', 'b'?)");
            assertThat(dead.get(0).source).isEqualTo("push.requests");
            assertThat(dead.get(0).raw).contains("\"msgId\":\"m2\"");
            assertThat(watermarks(h)).containsExactly(2_000L);
        }
    }

    @Test
    void aRestoreResumesAfterTheLastCheckpointedChunk() throws Exception {
        // 10 ids per chunk at 10,000 ids/s: one chunk per millisecond of processing time.
        CampaignExpander expander = new CampaignExpander(audiences, 10, 10_000);
        List<AudienceChunk> before;
        OperatorSubtaskState snapshot;
        try (var h = harness(expander)) {
            h.processElement1(campaign("m3", "a OR b", 1_000), 1_000);
            advance(h, 1, 3);
            before = chunks(h);
            snapshot = h.snapshot(1, 3);
            advance(h, 4, 6); // emitted after the checkpoint: lost with the failure
        }
        assertThat(before).hasSize(3);

        List<AudienceChunk> after;
        try (var h = restored(new CampaignExpander(audiences, 10, 10_000), snapshot)) {
            h.processWatermark1(new Watermark(9_000));
            assertThat(watermarks(h)).allMatch(w -> w < 1_000);
            advance(h, 1, 100);
            after = chunks(h);
            assertThat(watermarks(h)).contains(9_000L);
        }
        List<AudienceChunk> all = new ArrayList<>(before);
        all.addAll(after);
        assertThat(all).extracting(c -> c.index).isEqualTo(IntStream.range(0, 15).boxed().toList());
        assertThat(uids(all)).isEqualTo(range(0, 150));
    }

    @Test
    void theEndOfInputFinishesEveryCampaignBeforeTheLastWatermark() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 10, 1))) {
            h.processElement1(campaign("m4", "NOT a", 1_000), 1_000);
            h.processElement1(campaign("m5", "b", 2_000), 2_000);
            h.processWatermark1(Watermark.MAX_WATERMARK);
            h.endInput1();

            List<AudienceChunk> chunks = chunks(h);
            assertThat(uids(chunks.stream().filter(c -> c.request.msgId.equals("m4")).toList()))
                    .isEqualTo(range(100, 150));
            assertThat(uids(chunks.stream().filter(c -> c.request.msgId.equals("m5")).toList()))
                    .isEqualTo(range(50, 150));
            Object last = h.getOutput().stream().reduce((x, y) -> y).orElseThrow();
            assertThat(last).isEqualTo(Watermark.MAX_WATERMARK);
        }
    }

    /** A campaign limited to one id a second does not hold back the campaigns queued after it. */
    @Test
    void aSlowCampaignDoesNotBlockTheOnesAfterIt() throws Exception {
        try (var h = harness(new CampaignExpander(audiences, 10, 0, 0, false))) {
            ParsedRecord slow = campaign("slow", "a", 1_000);
            slow.request.maxRate = 1;
            h.processElement1(slow, 1_000);
            h.processElement1(campaign("fast", "b", 1_000), 1_000);
            advance(h, 0, 50);
            List<AudienceChunk> chunks = chunks(h);
            assertThat(uids(chunks.stream().filter(c -> c.request.msgId.equals("fast")).toList()))
                    .isEqualTo(range(50, 150));
            assertThat(chunks.stream().filter(c -> c.request.msgId.equals("slow")))
                    .hasSizeLessThanOrEqualTo(1);
            advance(h, 51, 3_000);
            assertThat(chunks(h).stream().filter(c -> c.request.msgId.equals("slow")))
                    .hasSizeBetween(3, 4);
        }
    }

    /** A list needs no store: it goes on while a campaign before it waits for a failing one. */
    @Test
    void aListDoesNotWaitBehindACampaignWaitingForAFailingStore() throws Exception {
        FlakyAudiences.DOWN.set(true);
        try (var h = harness(new CampaignExpander(new FlakyAudiences(audiences), 10, 0))) {
            h.processElement1(campaign("m1", "a", 1_000), 1_000);
            h.processElement1(list("l4", Target.ofUids(range(0, 60)), 2_000), 2_000);
            h.setProcessingTime(1);
            assertThat(chunks(h)).hasSize(6).allMatch(c -> c.request.msgId.equals("l4"));
        } finally {
            FlakyAudiences.DOWN.set(false);
        }
    }

    /** While the store fails, a campaign waits without holding event time, then runs from now. */
    @Test
    void aCampaignWaitsForAFailingStoreWithoutHoldingBackRealtimePushes() throws Exception {
        FlakyAudiences.DOWN.set(true);
        try (var h = harness(new CampaignExpander(new FlakyAudiences(audiences), 10, 0))) {
            h.processElement1(campaign("m1", "a AND NOT b", 1_000), 1_000);
            h.processElement1(campaign("m2", "b", 2_000), 2_000);
            h.processWatermark1(new Watermark(5_000));
            assertThat(watermarks(h)).containsExactly(5_000L);
            h.setProcessingTime(CampaignExpander.RETRY_FIRST_MS); // still down: next in 2 s
            assertThat(chunks(h)).isEmpty();
            assertThat(h.getSideOutput(DispatchTags.DEAD_LETTERS)).isNull();

            FlakyAudiences.DOWN.set(false);
            h.setProcessingTime(CampaignExpander.RETRY_FIRST_MS * 2);
            assertThat(chunks(h)).isEmpty(); // the backoff has not passed yet
            h.setProcessingTime(CampaignExpander.RETRY_FIRST_MS * 3);
            advance(
                    h,
                    CampaignExpander.RETRY_FIRST_MS * 3,
                    CampaignExpander.RETRY_FIRST_MS * 3 + 20);
            List<AudienceChunk> chunks = chunks(h);
            assertThat(chunks.stream().map(c -> c.request.msgId).distinct())
                    .containsExactly("m1", "m2");
            assertThat(chunks).allMatch(c -> c.request.ts == 5_001);
            assertThat(uids(chunks.stream().filter(c -> c.request.msgId.equals("m1")).toList()))
                    .isEqualTo(range(0, 50));
        } finally {
            FlakyAudiences.DOWN.set(false);
        }
    }

    private TwoInputStreamOperatorTestHarness<ParsedRecord, PacingStatus, AudienceChunk> harness(
            CampaignExpander expander) throws Exception {
        var h = new TwoInputStreamOperatorTestHarness<>(expander);
        h.open();
        return h;
    }

    private static void advance(
            TwoInputStreamOperatorTestHarness<ParsedRecord, PacingStatus, AudienceChunk> h,
            long from,
            long to)
            throws Exception {
        for (long t = from; t <= to; t++) {
            h.setProcessingTime(t);
        }
    }

    private static TwoInputStreamOperatorTestHarness<ParsedRecord, PacingStatus, AudienceChunk>
            restored(CampaignExpander expander, OperatorSubtaskState snapshot) throws Exception {
        var h = new TwoInputStreamOperatorTestHarness<>(expander);
        h.setup();
        h.initializeState(snapshot);
        h.open();
        return h;
    }

    private static ParsedRecord list(String msgId, Target target, long ts) {
        ParsedRecord r = campaign(msgId, "a", ts);
        r.request.level = 1;
        r.request.target = target;
        return r;
    }

    private static ParsedRecord campaign(String msgId, String expression, long ts) {
        PushRequest p = new PushRequest();
        p.ts = ts;
        p.msgId = msgId;
        p.msgType = "campaign";
        p.title = "t";
        p.body = "b";
        p.target = Target.ofAudience(expression);
        p.level = 1;
        return ParsedRecord.of(p).from("push.requests", "0@" + ts);
    }

    private static List<AudienceChunk> chunks(
            TwoInputStreamOperatorTestHarness<ParsedRecord, PacingStatus, AudienceChunk> h) {
        return h.extractOutputValues();
    }

    private static List<Long> watermarks(
            TwoInputStreamOperatorTestHarness<ParsedRecord, PacingStatus, AudienceChunk> h) {
        return h.getOutput().stream()
                .filter(o -> o instanceof Watermark)
                .map(o -> ((Watermark) o).getTimestamp())
                .collect(Collectors.toList());
    }

    /** The chunks' uids in emission order, through the resolver's lookup. */
    private List<String> uids(List<AudienceChunk> chunks) throws IOException {
        List<String> out = new ArrayList<>();
        try (Audiences a = audiences.open()) {
            for (AudienceChunk c : chunks) {
                out.addAll(List.of(a.uids(c.ids)));
            }
        }
        return out;
    }

    private static List<String> range(int from, int to) {
        return IntStream.range(from, to)
                .mapToObj(i -> String.format("u%03d", i))
                .collect(Collectors.toList());
    }

    private void write(String name, int from, int to) throws IOException {
        Files.write(dir.resolve(name + ".txt"), range(from, to));
    }
}
