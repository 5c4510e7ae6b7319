package io.pushline.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.longconn.AppVersion;
import io.pushline.schema.longconn.LongconnEvent;
import org.junit.jupiter.api.Test;

class LongconnParserTest {
    @Test
    void readsTheThreeTypes() {
        LongconnEvent p =
                LongconnParser.parse(
                                "{\"ts\":5,\"type\":\"presence\",\"deviceId\":\"d\",\"online\":false,"
                                        + "\"appVersion\":\"7.0.1\",\"extra\":[1]}",
                                3)
                        .event();
        assertThat(p.type).isEqualTo("presence");
        assertThat(p.online).isFalse();
        assertThat(p.appVersion).isEqualTo("7.0.1");
        assertThat(p.seq).isEqualTo(3);
        LongconnEvent s =
                LongconnParser.parse(
                                "{\"ts\":-7,\"type\":\"sent\",\"msgId\":\"m\",\"deviceId\":\"d\"}",
                                1)
                        .event();
        assertThat(s.ts).isEqualTo(-7);
        assertThat(s.msgId).isEqualTo("m");
        LongconnEvent a =
                LongconnParser.parse("{\"ts\":1,\"msgId\":\"m\",\"deviceId\":\"d\"}", 1, "ack")
                        .event();
        assertThat(a.type).isEqualTo("ack");
    }

    @Test
    void badLinesSayWhy() {
        assertBad("not json", "not valid JSON");
        assertBad("[1]", "not a JSON object");
        assertBad("{\"type\":\"sent\",\"msgId\":\"m\",\"deviceId\":\"d\"}", "missing field 'ts'");
        assertBad("{\"ts\":\"1\",\"type\":\"sent\",\"msgId\":\"m\",\"deviceId\":\"d\"}", "'ts'");
        assertBad("{\"ts\":1.5,\"type\":\"sent\",\"msgId\":\"m\",\"deviceId\":\"d\"}", "'ts'");
        assertBad("{\"ts\":1,\"msgId\":\"m\",\"deviceId\":\"d\"}", "missing field 'type'");
        assertBad("{\"ts\":1,\"type\":\"nack\"}", "unknown type 'nack'");
        assertBad("{\"ts\":1,\"type\":\"sent\",\"deviceId\":\"d\"}", "missing field 'msgId'");
        assertBad("{\"ts\":1,\"type\":\"ack\",\"msgId\":\"m\",\"deviceId\":7}", "'deviceId'");
        assertBad("{\"ts\":1,\"type\":\"presence\",\"deviceId\":\"d\"}", "missing field 'online'");
        assertBad(
                "{\"ts\":1,\"type\":\"presence\",\"deviceId\":\"d\",\"online\":\"yes\"}",
                "'online'");
        for (String v :
                new String[] {"7.", ".7", "7..0", "1.2.3.4.5", "v7", "7.0-beta", "", " 7"}) {
            assertBad(
                    "{\"ts\":1,\"type\":\"presence\",\"deviceId\":\"d\",\"online\":true,"
                            + "\"appVersion\":\""
                            + v
                            + "\"}",
                    "'appVersion'");
        }
        assertBad(
                "{\"ts\":1,\"type\":\"presence\",\"deviceId\":\"d\",\"online\":true,\"appVersion\":7}",
                "'appVersion'");
        assertBad("[".repeat(60_000), "not valid JSON");
        assertBad("{\"ts\":1}".repeat(10_000), "more than");
    }

    @Test
    void versionsCompareNumericallyComponentByComponent() {
        assertThat(AppVersion.compare("7.0", "7.0.0")).isZero();
        assertThat(AppVersion.compare("7.0.0", "7.0.1")).isNegative();
        assertThat(AppVersion.compare("7.0.1", "7.10")).isNegative();
        assertThat(AppVersion.compare("7.9", "7.10")).isNegative();
        assertThat(AppVersion.compare("007.1", "7.01")).isZero();
        assertThat(AppVersion.compare("99999999999999999999", "9")).isPositive();
        assertThat(AppVersion.compare("6.99.99.99", "7")).isNegative();
    }

    private static void assertBad(String line, String reason) {
        LongconnParser.Result r = LongconnParser.parse(line, 1);
        assertThat(r.event()).as(line).isNull();
        assertThat(r.reason()).as(line).contains(reason);
    }
}
