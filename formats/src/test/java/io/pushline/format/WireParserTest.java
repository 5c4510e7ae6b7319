package io.pushline.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WireParserTest {
    private final WireParser strict = new WireParser(true);
    private final WireParser lenient = new WireParser(false);

    @Test
    void readsEveryKindOfTraceLine() {
        DeviceEvent bind =
                strict.parse(
                                "{\"ts\":5,\"type\":\"bind\",\"deviceId\":\"d1\",\"uid\":\"u1\","
                                        + "\"vendor\":\"huawei\",\"token\":\"t1\",\"tz\":\"Asia/Shanghai\","
                                        + "\"pushEnabled\":false}",
                                "trace",
                                "1",
                                1)
                        .event;
        assertThat(bind.type).isEqualTo("bind");
        assertThat(bind.uid).isEqualTo("u1");
        assertThat(bind.tz).isEqualTo("Asia/Shanghai");
        assertThat(bind.pushEnabled).isFalse();
        assertThat(bind.seq).isEqualTo(1);

        DeviceEvent sw =
                strict.parse(
                                "{\"ts\":6,\"type\":\"switch\",\"deviceId\":\"d1\",\"enabled\":true}",
                                "trace",
                                "2",
                                2)
                        .event;
        assertThat(sw.enabled).isTrue();

        PushRequest p =
                strict.parse(
                                "{\"ts\":7,\"type\":\"push\",\"msgId\":\"m1\",\"msgType\":\"news\","
                                        + "\"level\":2,\"title\":\"T\",\"body\":\"B\","
                                        + "\"target\":{\"uids\":[\"u1\",\"u2\"]}}",
                                "trace",
                                "3",
                                3)
                        .request;
        assertThat(p.level).isEqualTo(2);
        assertThat(p.target.uids).containsExactly("u1", "u2");
        assertThat(p.ts).isEqualTo(7);
    }

    @Test
    void aRecordWrittenBackIsTheSameTraceLine() {
        String line =
                "{\"ts\":7,\"type\":\"push\",\"msgId\":\"m1\",\"msgType\":\"news\",\"level\":2,"
                        + "\"title\":\"T\",\"body\":\"B\",\"target\":{\"devices\":[\"d1\"]}}";
        assertThat(Json.write(strict.parse(line, "trace", "1", 1).request)).isEqualTo(line);
        String bind =
                "{\"ts\":5,\"type\":\"bind\",\"deviceId\":\"d1\",\"uid\":\"u1\",\"vendor\":\"fcm\","
                        + "\"token\":\"t1\"}";
        assertThat(Json.write(strict.parse(bind, "trace", "1", 1).event)).isEqualTo(bind);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{not json|not valid JSON",
                "[1,2]|not a JSON object",
                "{\"ts\":1}|missing field 'type'",
                "{\"ts\":1,\"type\":\"rebind\"}|unknown type 'rebind'",
                "{\"type\":\"unbind\",\"deviceId\":\"d\"}|missing field 'ts'",
                "{\"ts\":\"noon\",\"type\":\"unbind\",\"deviceId\":\"d\"}|field 'ts' must be an integer",
                "{\"ts\":1,\"type\":\"unbind\"}|missing field 'deviceId'",
                "{\"ts\":1,\"type\":\"unbind\",\"deviceId\":\"\"}|field 'deviceId' must be a non-empty string",
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d\",\"vendor\":\"fcm\",\"token\":\"t\"}|missing field 'uid'",
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d\",\"uid\":\"u\",\"token\":\"t\"}|missing field 'vendor'",
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d\",\"uid\":\"u\",\"vendor\":\"fcm\"}|missing field 'token'",
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d\",\"uid\":\"u\",\"vendor\":\"nokia\",\"token\":\"t\"}|unknown vendor 'nokia'",
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d\",\"uid\":\"u\",\"vendor\":\"fcm\",\"token\":\"t\",\"tz\":\"Mars/Base\"}|field 'tz': unknown zone 'Mars/Base'",
                "{\"ts\":1,\"type\":\"switch\",\"deviceId\":\"d\"}|missing field 'enabled'",
                "{\"ts\":1,\"type\":\"switch\",\"deviceId\":\"d\",\"enabled\":\"yes\"}|field 'enabled' must be true or false",
                "{\"ts\":1,\"type\":\"push\",\"msgType\":\"n\",\"title\":\"t\",\"body\":\"b\",\"target\":{\"uids\":[]}}|missing field 'msgId'",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"title\":\"t\",\"body\":\"b\",\"target\":{\"uids\":[]}}|missing field 'msgType'",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"body\":\"b\",\"target\":{\"uids\":[]}}|missing field 'title'",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"title\":\"t\",\"target\":{\"uids\":[]}}|missing field 'body'",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"title\":\"t\",\"body\":\"b\"}|missing field 'target'",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"title\":\"t\",\"body\":\"b\",\"target\":{}}|exactly one of uids, devices, audience (has 0)",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"title\":\"t\",\"body\":\"b\",\"target\":{\"uids\":[],\"devices\":[]}}|exactly one of uids, devices, audience (has 2)",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"title\":\"t\",\"body\":\"b\",\"target\":{\"uids\":[1]}}|field 'target.uids' must be an array of non-empty strings",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"title\":\"t\",\"body\":\"b\",\"target\":{\"savedAudience\":\"a b\"}}|field 'target.savedAudience' must be a saved audience's name",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"title\":\"t\",\"body\":\"b\",\"target\":{\"savedAudience\":\"x\",\"audience\":\"a\"}}|exactly one of uids, devices, audience (has 2); a savedAudience is an audience",
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"level\":1.5,\"title\":\"t\",\"body\":\"b\",\"target\":{\"uids\":[]}}|field 'level' must be an integer",
            })
    void badRecordsBecomeDeadLettersNamingTheField(String line, String reason) {
        ParsedRecord r = strict.parse(line, "push.requests", "0-42", 42);
        assertThat(r.event).isNull();
        assertThat(r.request).isNull();
        assertThat(r.dead.reason).contains(reason);
        assertThat(r.dead.raw).isEqualTo(DeadLetter.mask(line));
        assertThat(r.dead.raw).doesNotContain("\"token\":\"t\"");
        assertThat(r.dead.source).isEqualTo("push.requests");
        assertThat(r.dead.position).isEqualTo("0-42");
        assertThat(r.timestamp()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aCampaignMayNameASavedAudience() {
        String line =
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"promo\",\"title\":\"t\","
                        + "\"body\":\"b\",\"target\":{\"savedAudience\":\"reactivation\"}}";
        PushRequest p = strict.parse(line, "push.requests", "0-1", 1).request;
        assertThat(p.target.savedAudience).isEqualTo("reactivation");
        assertThat(p.target.audience).isNull();
        assertThat(Json.write(p.target)).isEqualTo("{\"savedAudience\":\"reactivation\"}");
    }

    @Test
    void aReplayAcceptsAnyVendorName() {
        String line =
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d\",\"uid\":\"u\",\"vendor\":\"nokia\",\"token\":\"t\"}";
        assertThat(lenient.parse(line, "trace", "1", 1).event.vendor).isEqualTo("nokia");
    }

    @Test
    void emptyAndNullRecordsAreDeadLetters() {
        assertThat(strict.parse(null, "device.events", "0-1", 1).dead.reason)
                .isEqualTo("empty record");
        assertThat(strict.parse("  ", "device.events", "0-2", 2).dead.reason)
                .isEqualTo("empty record");
    }

    @Test
    void vendorTopicsCoverEveryVendor() {
        assertThat(Topics.dispatchTopics())
                .contains(
                        "push.vendor.apns",
                        "push.vendor.fcm",
                        "push.vendor.huawei",
                        "push.vendor.honor",
                        "push.vendor.xiaomi",
                        "push.vendor.oppo",
                        "push.vendor.vivo",
                        "push.vendor.longconn");
        assertThat(Vendor.fromWire("longconn")).isEqualTo(Vendor.LONGCONN);
        assertThat(Vendor.fromWire("LongConn")).isNull();
        assertThat(List.of(Vendor.values())).hasSize(8);
    }

    /** Hostile shapes come out as dead letters with a reason, never as a thrown error. */
    @Test
    void hostileRecordsAreDeadLettersNotErrors() {
        String deep =
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"target\":"
                        + "[".repeat(100_000)
                        + "]".repeat(100_000)
                        + "}";
        String nul =
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d\\u0000\",\"uid\":\"u\","
                        + "\"vendor\":\"fcm\",\"token\":\"T\"}";
        String hugeNumber =
                "{\"ts\":1" + "0".repeat(5_000) + ",\"type\":\"unbind\",\"deviceId\":\"d\"}";
        String duplicate = "{\"ts\":1,\"ts\":2,\"type\":\"unbind\",\"deviceId\":\"d\"}";
        for (String line :
                new String[] {deep, hugeNumber, duplicate, "\uFFFF\uD800", "[1,2]", "{}"}) {
            ParsedRecord r = strict.parse(line, "push.requests", "0-1", 1);
            assertThat(r.dead).as(line.substring(0, Math.min(60, line.length()))).isNotNull();
            assertThat(r.dead.reason).isNotBlank();
            assertThat(r.dead.raw.length()).isLessThanOrEqualTo(DeadLetter.MAX_RAW);
        }
        assertThat(strict.parse(duplicate, "device.events", "0-2", 2).dead.reason)
                .contains("Duplicate field 'ts'");
        // a NUL inside a string is data, not a reason to stop: parsed, and nothing thrown
        assertThat(strict.parse(nul, "device.events", "0-3", 3).event.deviceId)
                .isEqualTo("d\u0000");
    }

    /** Ids and tokens have a length limit, and so has a whole record, each with its reason. */
    @Test
    void overlongFieldsAndRecordsAreRefusedNamingTheLimit() {
        String longId = "d".repeat(WireParser.MAX_ID + 1);
        String bind =
                "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"%s\",\"uid\":\"u\",\"vendor\":\"fcm\","
                        + "\"token\":\"%s\"}";
        assertThat(strict.parse(String.format(bind, longId, "t"), "e", "0-1", 1).dead.reason)
                .isEqualTo("field 'deviceId' is longer than 256 characters");
        String longToken = "t".repeat(WireParser.MAX_TOKEN + 1);
        ParsedRecord r = strict.parse(String.format(bind, "d", longToken), "e", "0-2", 2);
        assertThat(r.dead.reason).isEqualTo("field 'token' is longer than 4096 characters");
        assertThat(r.dead.raw).doesNotContain("ttt");
        assertThat(strict.parse(String.format(bind, "d".repeat(256), "t"), "e", "0-3", 3).event)
                .isNotNull();
        String push =
                "{\"ts\":1,\"type\":\"push\",\"msgId\":\"m\",\"msgType\":\"n\",\"title\":\"t\","
                        + "\"body\":\"b\",\"target\":{\"uids\":[\"u1\",\"%s\"]}}";
        assertThat(strict.parse(String.format(push, longId), "r", "0-4", 4).dead.reason)
                .contains("of at most 256 characters");
        String huge = String.format(push, "u2").replace("\"b\"", "\"" + "b".repeat(1 << 20) + "\"");
        assertThat(strict.parse(huge, "r", "0-5", 5).dead.reason)
                .startsWith("record of ")
                .endsWith("characters, more than 1048576");
    }
}
