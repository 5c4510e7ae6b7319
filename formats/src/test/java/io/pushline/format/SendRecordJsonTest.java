package io.pushline.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Fallback;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SendRecordJsonTest {
    private static final String[] TEXTS = {
        null, "", "plain", "quote \" and \\ backslash", "tab\tnew\nline\u0001", "é 中文 😀", "\u2028"
    };

    @Test
    void writesTheBytesDatabindWrites() {
        Random r = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            SendRecord s = new SendRecord();
            s.msgId = pick(r);
            s.msgType = pick(r);
            s.level = r.nextInt(7) - 1;
            s.uid = pick(r);
            s.deviceId = pick(r);
            s.vendor = pick(r);
            s.token = pick(r);
            s.title = pick(r);
            s.body = r.nextInt(10) == 0 ? "x".repeat(5_000) : pick(r);
            s.ts = r.nextBoolean() ? r.nextLong() : 1_767_225_600_000L;
            s.deadline = r.nextBoolean() ? null : r.nextLong();
            s.attempt = r.nextBoolean() ? null : r.nextInt();
            s.fallback = r.nextBoolean() ? null : Fallback.of(pick(r), pick(r));
            String expected = Json.write(s);
            assertThat(new String(SendRecordJson.bytes(s), StandardCharsets.UTF_8))
                    .isEqualTo(expected);
        }
    }

    private static String pick(Random r) {
        return TEXTS[r.nextInt(TEXTS.length)];
    }
}
