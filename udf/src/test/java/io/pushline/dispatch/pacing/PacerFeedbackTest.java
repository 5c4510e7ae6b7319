package io.pushline.dispatch.pacing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.pacing.PacingStatus;
import org.apache.flink.metrics.SimpleCounter;
import org.junit.jupiter.api.Test;

/**
 * Reports reach a stage late exactly when its output is backpressured: late news must still slow it
 * down, never let it speed up.
 */
class PacerFeedbackTest {
    private static final long BOUND = 20_000;

    private static PacingStatus report(String vendor, long backlog, long madeAt, long watermark) {
        PacingStatus s = PacingStatus.of(vendor, backlog, 500, 500, madeAt);
        s.watermark = watermark;
        return s;
    }

    @Test
    void aReportThatAVendorIsBehindStandsWhenItArrivesLateUntilANewerOneSaysOtherwise() {
        PacerFeedback f = new PacerFeedback("test", BOUND, 0, new SimpleCounter());
        // made at 10 s, read at 18 s: the stage's input waited behind its blocked output
        f.report(report("xiaomi", 90_000, 10_000, 9_000), 18_000, 9_000, true);
        assertThat(f.vendorBehind(18_000)).isEqualTo("xiaomi");
        assertThat(f.vendorBehind(69_999)).isEqualTo("xiaomi");

        f.report(report("xiaomi", 19_000, 18_100, 17_000), 18_200, 17_000, true);
        assertThat(f.vendorBehind(18_200)).isNull();
        // an older report read after the newer one changes nothing
        f.report(report("xiaomi", 90_000, 17_000, 16_000), 18_300, 17_000, true);
        assertThat(f.vendorBehind(18_300)).isNull();
    }

    @Test
    void aReportThatAVendorIsBehindLapsesAfterAMinuteWithoutNews() {
        PacerFeedback f = new PacerFeedback("test", BOUND, 0, new SimpleCounter());
        f.report(report("fcm", 90_000, 10_000, 9_000), 10_100, 9_000, true);
        assertThat(f.vendorBehind(10_000 + PacerFeedback.BEHIND_HOLDS_MS)).isEqualTo("fcm");
        assertThat(f.vendorBehind(10_001 + PacerFeedback.BEHIND_HOLDS_MS)).isNull();
    }

    @Test
    void aLateReportCutsTheRate() {
        SimpleCounter cuts = new SimpleCounter();
        PacerFeedback f = new PacerFeedback("test", BOUND, 100, cuts);
        f.backlogStarts(10_000, 9_950);
        double start = f.rate();
        assertThat(start).isPositive();
        f.report(report("fcm", 0, 10_000, 9_900), 14_000, 9_950, true);
        assertThat(f.rate()).isLessThan(start);
        assertThat(cuts.getCount()).isEqualTo(1);
    }

    @Test
    void afterAReportASilenceDoesNotLetTheRateGrowForTenSeconds() {
        PacerFeedback f = new PacerFeedback("test", BOUND, 100, new SimpleCounter());
        f.backlogStarts(10_000, 9_950);
        f.report(report("fcm", 0, 10_000, 9_900), 10_000, 9_950, false);
        double rate = f.rate();
        for (long t = 10_200; t <= 10_000 + PacerFeedback.BLIND_AFTER_MS; t += 200) {
            f.emitted(100, t);
        }
        assertThat(f.rate()).isEqualTo(rate);
        f.emitted(100, 10_201 + PacerFeedback.BLIND_AFTER_MS);
        assertThat(f.rate()).isGreaterThan(rate);
    }

    @Test
    void withoutAnyReportTheRateGrowsAtOnce() {
        PacerFeedback f = new PacerFeedback("test", BOUND, 100, new SimpleCounter());
        f.backlogStarts(10_000, 9_950);
        double rate = f.rate();
        f.emitted(100, 10_200);
        assertThat(f.rate()).isGreaterThan(rate);
    }
}
