package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.receipts.Lifecycle;
import org.junit.jupiter.api.Test;

class TraceDescribeTest {
    private static final long T = 1_767_225_600_000L;

    @Test
    void showsTheLongConnectionsAttempts() {
        Lifecycle l = new Lifecycle();
        l.msgId = "m";
        l.deviceId = "d";
        l.vendor = "longconn";
        l.msgType = "news";
        l.decision = "PASS";
        l.code = 0;
        l.decidedAt = T;
        l.lcRetries = 2;
        l.lcRetryAt = new long[] {T + 10_000, T + 20_000};
        l.lcAckedAt = T + 23_500;
        l.lcCompensationMs = 23_000;
        String text = TraceCommand.describe(l);
        assertThat(text)
                .contains("retry 1    2026-01-01T00:00:10Z (+10.0 s)")
                .contains("retry 2    2026-01-01T00:00:20Z (+20.0 s)")
                .contains("acked      2026-01-01T00:00:23.500Z (+23.5 s)")
                .contains("after 2 retries: compensation 23.0 s")
                .contains("status     delivered");

        l.lcAckedAt = Lifecycle.NONE;
        l.lcFallbackAt = T + 30_000;
        assertThat(TraceCommand.describe(l)).contains("no vendor channel: undeliverable");
        l.lcFallbackVendor = "huawei";
        assertThat(TraceCommand.describe(l)).contains("offline: sent on huawei");
    }
}
