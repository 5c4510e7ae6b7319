package io.pushline.dispatch.pacing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.pacing.VendorPacing;
import org.junit.jupiter.api.Test;

/**
 * A vendor's Retry-After: nothing leaves until it has passed, then sending resumes at the cut rate.
 */
class VendorPacerPauseTest {
    static VendorPacing sending(double rate) {
        VendorPacing s = new VendorPacing();
        s.maxRate = rate;
        s.rate = rate;
        s.refilledAt = 0;
        s.tail[0] = 1_000_000; // a backlog waits
        VendorPacer.refill(s, 1_000, 10, 0.05);
        return s;
    }

    @Test
    void aThrottleWithRetryAfterHoldsEverySendForThatLong() {
        VendorPacing s = sending(1_000);
        assertThat(VendorPacer.mayAct(s)).isTrue();
        VendorPacer.throttle(s, 1_000, 0.5);
        VendorPacer.pause(s, 1_000, 2_000);
        for (long t = 1_010; t < 2_990; t += 10) {
            VendorPacer.refill(s, t, 10, 0.05);
            assertThat(VendorPacer.mayAct(s)).as("at %d ms", t).isFalse();
        }
        assertThat(s.rate).as("no recovery during the pause").isEqualTo(500);
        VendorPacer.refill(s, 3_010, 10, 0.05);
        assertThat(VendorPacer.mayAct(s)).isTrue();
        VendorPacer.refill(s, 4_010, 10, 0.05);
        assertThat(s.rate).isGreaterThan(500);
    }

    @Test
    void withoutRetryAfterOnlyTheRateIsCut() {
        VendorPacing s = sending(1_000);
        VendorPacer.throttle(s, 1_000, 0.5);
        VendorPacer.pause(s, 1_000, 0);
        VendorPacer.refill(s, 1_010, 10, 0.05);
        assertThat(VendorPacer.mayAct(s)).isTrue();
        assertThat(s.rate).isEqualTo(500);
    }
}
