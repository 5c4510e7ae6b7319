package io.pushline.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DecisionJsonTest {
    @Test
    void writesTheBytesDatabindWrites() {
        Random r = new Random(11);
        for (int i = 0; i < 5_000; i++) {
            Decision d = new Decision();
            d.msgId = JsonTexts.pick(r);
            d.uid = JsonTexts.pick(r);
            d.deviceId = JsonTexts.pick(r);
            d.vendor = JsonTexts.pick(r);
            d.decision = r.nextBoolean() ? Decision.PASS : JsonTexts.pick(r);
            d.reason = JsonTexts.pick(r);
            d.code = r.nextInt();
            d.msgType = JsonTexts.pick(r);
            d.ts = JsonTexts.number(r);
            d.seq = r.nextLong(); // not on the wire
            assertThat(DecisionJson.bytes(d))
                    .isEqualTo(Json.write(d).getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aDecisionOfTheGateReadsBackAsItWasWritten() {
        Decision d = new Decision();
        d.msgId = "m-1";
        d.uid = "u \"1\"";
        d.deviceId = "d-1";
        d.decision = Decision.DROP;
        d.reason = "quiet_hours";
        d.code = 12;
        d.msgType = "promo";
        d.ts = 1_767_225_600_000L;
        Decision back =
                Json.read(
                        new String(DecisionJson.bytes(d), StandardCharsets.UTF_8), Decision.class);
        assertThat(back).isEqualTo(d);
    }
}
