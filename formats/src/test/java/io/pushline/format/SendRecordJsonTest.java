package io.pushline.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Fallback;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SendRecordJsonTest {
    @Test
    void writesTheBytesDatabindWrites() {
        Random r = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            SendRecord s = new SendRecord();
            s.msgId = JsonTexts.pick(r);
            s.msgType = JsonTexts.pick(r);
            s.level = r.nextInt(7) - 1;
            s.uid = JsonTexts.pick(r);
            s.deviceId = JsonTexts.pick(r);
            s.vendor = JsonTexts.pick(r);
            s.token = JsonTexts.pick(r);
            s.title = JsonTexts.pick(r);
            s.body = r.nextInt(10) == 0 ? "x".repeat(5_000) : JsonTexts.pick(r);
            s.ts = JsonTexts.number(r);
            s.deadline = r.nextBoolean() ? null : JsonTexts.number(r);
            s.attempt = r.nextBoolean() ? null : r.nextInt();
            s.fallback = r.nextBoolean() ? null : Fallback.of(JsonTexts.pick(r), JsonTexts.pick(r));
            assertThat(SendRecordJson.bytes(s))
                    .isEqualTo(Json.write(s).getBytes(StandardCharsets.UTF_8));
        }
    }
}
