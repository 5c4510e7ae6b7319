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
                .isEqualTo("{\"msgId\":\"m1\",\"title\":\"***\",\"body\":\"***\",\"x\":\"***\"}");
    }

    /** Only the fields that find a record show: a secret in any other place is masked. */
    @Test
    void secretsHiddenUnderOtherKeysEscapedKeysOrInArraysAreMasked() {
        String sly =
                "{\"msgId\":\"m1\",\"\\u0074oken\":\"SECRET1\",\"extra\":{\"t\":\"SECRET2\"},"
                        + "\"target\":{\"uids\":[\"SECRET3\", \"SECRET4\"]},\"n\":12,\"ok\":true}";
        String raw = DeadLetter.of("push.requests", "0-1", "r", sly).raw;
        assertThat(raw)
                .doesNotContain("SECRET")
                .contains("\"msgId\":\"m1\"")
                .contains("\"n\":***,\"ok\":true")
                .contains("\"uids\":[\"***\", \"***\"]");
        // a shown key's value is shown only right after its colon, not further along an array
        assertThat(DeadLetter.mask("{\"msgId\":[\"a\",\"SECRET\"]}")).doesNotContain("SECRET");
    }

    @Test
    void parserProblemsDoNotQuoteTheRecord() {
        String bad = "{\"deviceId\":\"d1\",\"token\": SECRETTOKEN}";
        String problem;
        try {
            Json.WIRE.readTree(bad);
            throw new AssertionError("parsed");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            assertThat(e.getOriginalMessage()).contains("SECRETTOKEN");
            problem = Json.problem(e);
        }
        assertThat(problem).startsWith("Unrecognized token '***'").doesNotContain("SECRET");
        try {
            Json.WIRE.readTree("{\"ts\":1,\"ts\":2}");
            throw new AssertionError("parsed");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            assertThat(Json.problem(e)).contains("Duplicate field 'ts'");
        }
    }

    @Test
    void aValueCutOffAtTheEndIsMaskedToTheEnd() {
        assertThat(DeadLetter.mask("{\"token\":\"SECRET")).isEqualTo("{\"token\":\"***\"");
        assertThat(DeadLetter.mask("{\"token\":\"SECRET\\")).isEqualTo("{\"token\":\"***\"");
    }

    /**
     * What the scan of string values alone let through: text without a quote, unquoted values and
     * numbers that may be a uid or a phone number. Only the shape and the shown keys' numbers stay.
     */
    @Test
    void textWithoutQuotesUnquotedValuesAndNumbersAreMasked() {
        assertThat(DeadLetter.mask("u-13800138000 SECRET-tok")).isEqualTo("*** ***");
        assertThat(DeadLetter.mask("{\"token\": SECRET-tok}")).isEqualTo("{\"token\": ***}");
        assertThat(DeadLetter.mask("{\"uid\":13800138000,\"ts\":17,\"level\":3}"))
                .isEqualTo("{\"uid\":***,\"ts\":17,\"level\":3}");
        assertThat(DeadLetter.mask("{\"uids\":[138001,138002],\"inbox\":true,\"x\":null}"))
                .isEqualTo("{\"uids\":[***,***],\"inbox\":true,\"x\":null}");
        assertThat(DeadLetter.mask("{\"ts\":1,\"deviceId\":\"d1\",\"token\":\"SECRET\"}"))
                .isEqualTo("{\"ts\":1,\"deviceId\":\"d1\",\"token\":\"***\"}");
        // a segment file's rejected line is plain text: nothing of it stays
        DeadLetter d = DeadLetter.of("seg.txt", "line 3", "malformed uid", "alice@example.com x");
        assertThat(d.raw).isEqualTo("*** ***");
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
