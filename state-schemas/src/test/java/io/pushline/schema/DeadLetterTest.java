package io.pushline.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DeadLetterTest {
    @Test
    void tokensTitlesAndBodiesAreMaskedInRawAndReason() {
        String bind =
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d1\",\"token\" : \"SECRET-tok\\\"en\","
                        + "\"tz\":\"Mars/Base\"}";
        DeadLetter d =
                DeadLetter.of(
                        "device.events", "0-7", "unknown zone in {\"token\":\"SECRET-2\"}", bind);
        assertThat(d.raw)
                .isEqualTo(
                        "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d1\",\"token\" : \"***\","
                                + "\"tz\":\"Mars/Base\"}");
        assertThat(d.reason).doesNotContain("SECRET").contains("\"token\":\"***\"");
        String push =
                "{\"msgId\":\"m1\",\"title\":\"Hi \\u00e9\",\"body\":\"SECRET\",\"x\":\"body\"}";
        assertThat(DeadLetter.of("push.requests", "1-2", "r", push).raw)
                .isEqualTo("{\"msgId\":\"m1\",\"title\":\"***\",\"body\":\"***\",\"x\":\"body\"}");
    }

    @Test
    void aValueCutOffAtTheEndIsMaskedToTheEnd() {
        assertThat(DeadLetter.mask("{\"token\":\"SECRET")).isEqualTo("{\"token\":\"***\"");
        assertThat(DeadLetter.mask("{\"token\":\"SECRET\\")).isEqualTo("{\"token\":\"***\"");
        assertThat(DeadLetter.mask("no quotes here")).isEqualTo("no quotes here");
        assertThat(DeadLetter.mask("{\"token\":12}")).isEqualTo("{\"token\":12}");
    }

    /** 960 KB of escaped control characters once made a dead letter over the producer's limit. */
    @Test
    void aHugeRecordMakesASmallDeadLetter() {
        String huge = "{\"token\":\"" + "\\u0001".repeat(160_000) + "\",\"deviceId\":\"d1\"}";
        DeadLetter d = DeadLetter.of("device.events", "0-1", "x".repeat(50_000), huge);
        assertThat(d.rawLength).isEqualTo(huge.length());
        assertThat(d.raw.length()).isLessThanOrEqualTo(DeadLetter.MAX_RAW);
        assertThat(d.raw).isEqualTo("{\"token\":\"***\"");
        assertThat(d.reason).hasSize(DeadLetter.MAX_REASON);
        byte[] written = Json.write(d).getBytes(StandardCharsets.UTF_8);
        assertThat(written.length).isLessThan(64 * 1024);
        String controls = "\u0001".repeat(900_000);
        byte[] escaped =
                Json.write(DeadLetter.of("s", "p", "r", controls)).getBytes(StandardCharsets.UTF_8);
        assertThat(escaped.length).isLessThan(64 * 1024);
        assertThat(DeadLetter.of("s", "p", "r", "short").rawLength).isNull();
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        String emoji = "a".repeat(DeadLetter.MAX_RAW - 1) + "😀😀";
        String raw = DeadLetter.of("s", "p", "r", emoji).raw;
        assertThat(Character.isHighSurrogate(raw.charAt(raw.length() - 1))).isFalse();
    }
}
