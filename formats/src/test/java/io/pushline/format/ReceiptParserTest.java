package io.pushline.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.receipts.ReceiptEvent;
import org.junit.jupiter.api.Test;

class ReceiptParserTest {
    @Test
    void readsEachReceiptType() {
        ReceiptEvent e =
                parse(
                        "{\"type\":\"failed\",\"msgId\":\"m\",\"deviceId\":\"d\",\"vendor\":\"fcm\","
                                + "\"ts\":5,\"code\":80300007}");
        assertThat(e.dead).isNull();
        assertThat(e.kind).isEqualTo(ReceiptEvent.FAILED);
        assertThat(e.reason).isEqualTo("80300007");
        assertThat(e.lifecycleKey()).isEqualTo("m\0d");
        for (String t : new String[] {"sent", "delivered", "clicked", "token_invalid"}) {
            assertThat(
                            parse(
                                            "{\"type\":\""
                                                    + t
                                                    + "\",\"msgId\":\"m\",\"deviceId\":\"d\","
                                                    + "\"vendor\":\"fcm\",\"ts\":5,\"token\":\"tk\"}")
                                    .dead)
                    .isNull();
        }
    }

    /** Without the refused token the registry could not tell a real report from a forged one. */
    @Test
    void readsTheLongConnectionsReports() {
        String retry =
                "{\"type\":\"longconn_retry\",\"msgId\":\"m\",\"deviceId\":\"d\",\"ts\":5,"
                        + "\"attempt\":2,\"delayMs\":10000}";
        ReceiptEvent e = parse(retry);
        assertThat(e.dead).isNull();
        assertThat(e.kind).isEqualTo(ReceiptEvent.LC_RETRY);
        assertThat(e.vendor).isEqualTo("longconn");
        assertThat(e.attempt).isEqualTo(2);
        assertThat(e.delayMs).isEqualTo(10_000);
        ReceiptEvent fb =
                parse(
                        retry.replace("longconn_retry", "longconn_fallback")
                                .replace("}", ",\"fallbackVendor\":\"vivo\"}"));
        assertThat(fb.kind).isEqualTo(ReceiptEvent.LC_FALLBACK);
        assertThat(fb.fallbackVendor).isEqualTo("vivo");
        assertThat(reason(retry.replace(",\"attempt\":2", "")))
                .startsWith("missing field 'attempt'");
        assertThat(reason(retry.replace("\"attempt\":2", "\"attempt\":-1")))
                .startsWith("field 'attempt' must be an integer >= 0");
        assertThat(reason(retry.replace("\"delayMs\":10000", "\"delayMs\":\"10s\"")))
                .startsWith("field 'delayMs' must be an integer");
        assertThat(reason(retry.replace("\"deviceId\":\"d\",", "")))
                .startsWith("missing field 'deviceId'");
    }

    @Test
    void anInvalidTokenReportNamesTheToken() {
        String noToken =
                "{\"type\":\"token_invalid\",\"msgId\":\"m\",\"deviceId\":\"d\",\"vendor\":\"fcm\",\"ts\":5}";
        assertThat(reason(noToken)).startsWith("missing field 'token'");
        assertThat(reason(noToken.replace("}", ",\"token\":7}")))
                .startsWith("field 'token' must be the refused token");
        ReceiptEvent e = parse(noToken.replace("}", ",\"token\":\"SECRET\"}"));
        assertThat(e.dead).isNull();
        assertThat(e.token).isEqualTo("SECRET");
        // nor does a dead letter of such a report carry it
        ReceiptEvent bad =
                parse(
                        noToken.replace("\"ts\":5", "\"ts\":\"x\"")
                                .replace("}", ",\"token\":\"SECRET\"}"));
        assertThat(bad.dead).isNotNull();
        assertThat(Json.write(bad.dead)).doesNotContain("SECRET");
    }

    @Test
    void badReceiptsComeBackAsDeadLettersNamingTheField() {
        assertThat(reason("not json")).startsWith("not valid JSON");
        assertThat(reason("[1]")).isEqualTo("not a JSON object");
        assertThat(reason("{\"type\":\"opened\",\"msgId\":\"m\",\"deviceId\":\"d\",\"ts\":1}"))
                .startsWith("unknown type 'opened'");
        assertThat(reason("{\"type\":\"sent\",\"deviceId\":\"d\",\"vendor\":\"v\",\"ts\":1}"))
                .isEqualTo("missing field 'msgId'");
        assertThat(reason("{\"type\":\"sent\",\"msgId\":\"m\",\"vendor\":\"v\",\"ts\":1}"))
                .isEqualTo("missing field 'deviceId'");
        assertThat(reason("{\"type\":\"sent\",\"msgId\":\"m\",\"deviceId\":\"d\",\"ts\":1}"))
                .isEqualTo("missing field 'vendor'");
        assertThat(
                        reason(
                                "{\"type\":\"sent\",\"msgId\":\"m\",\"deviceId\":\"d\",\"vendor\":\"v\","
                                        + "\"ts\":\"x\"}"))
                .isEqualTo("field 'ts' must be an integer (epoch milliseconds)");
        assertThat(
                        reason(
                                "{\"type\":\"failed\",\"msgId\":\"m\",\"deviceId\":\"d\",\"vendor\":\"v\","
                                        + "\"ts\":1}"))
                .startsWith("missing field 'code'");
    }

    @Test
    void readsTheGatesDecisions() {
        ReceiptEvent pass =
                ReceiptParser.parse(
                        Topics.DECISIONS,
                        "{\"msgId\":\"m\",\"uid\":\"u\",\"deviceId\":\"d\",\"vendor\":\"fcm\","
                                + "\"decision\":\"PASS\",\"reason\":null,\"code\":0,\"msgType\":\"news\","
                                + "\"ts\":9}",
                        "0-1");
        assertThat(pass.kind).isEqualTo(ReceiptEvent.DECISION);
        assertThat(pass.msgType).isEqualTo("news");
        ReceiptEvent noDevice =
                ReceiptParser.parse(
                        Topics.DECISIONS,
                        "{\"msgId\":\"m\",\"uid\":\"u\",\"deviceId\":null,\"vendor\":null,"
                                + "\"decision\":\"DROP\",\"reason\":\"no_device\",\"code\":10,"
                                + "\"msgType\":\"news\",\"ts\":9}",
                        "0-2");
        assertThat(noDevice.deviceId).isEqualTo("uid:u");
        assertThat(noDevice.code).isEqualTo(10);
        ReceiptEvent bad =
                ReceiptParser.parse(
                        Topics.DECISIONS, "{\"msgId\":\"m\",\"deviceId\":\"d\",\"ts\":1}", "1-7");
        assertThat(bad.dead.reason).isEqualTo("field 'decision' must be PASS or DROP");
        assertThat(bad.dead.source).isEqualTo(Topics.DECISIONS);
        assertThat(bad.dead.position).isEqualTo("1-7");
    }

    private static ReceiptEvent parse(String text) {
        return ReceiptParser.parse(Topics.RECEIPTS, text, "0-0");
    }

    private static String reason(String text) {
        ReceiptEvent e = parse(text);
        assertThat(e.dead).isNotNull();
        return e.dead.reason;
    }
}
