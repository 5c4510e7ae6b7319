package io.pushline.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact JSON of the output topics, as README.md documents it. */
class WireFormatTest {
    private static PushRequest push() {
        PushRequest p = new PushRequest();
        p.ts = 1000;
        p.msgId = "m1";
        p.msgType = "news";
        p.title = "T";
        p.body = "B";
        p.target = Target.ofUids(List.of("u1"));
        return p;
    }

    @Test
    void decisionsStartWithTheReplayLineAndKeepNulls() {
        assertThat(Json.write(Decision.pass(push(), "u1", "d1", "huawei")))
                .isEqualTo(
                        "{\"msgId\":\"m1\",\"uid\":\"u1\",\"deviceId\":\"d1\",\"vendor\":\"huawei\","
                                + "\"decision\":\"PASS\",\"reason\":null,\"code\":0,"
                                + "\"msgType\":\"news\",\"ts\":1000}");
        assertThat(Json.write(Decision.drop(push(), "u2", null, DropReason.NO_DEVICE)))
                .isEqualTo(
                        "{\"msgId\":\"m1\",\"uid\":\"u2\",\"deviceId\":null,\"vendor\":null,"
                                + "\"decision\":\"DROP\",\"reason\":\"no_device\",\"code\":10,"
                                + "\"msgType\":\"news\",\"ts\":1000}");
    }

    @Test
    void sendRecordsAndDeadLettersHaveDocumentedFields() {
        SendRecord s = new SendRecord();
        s.msgId = "m1";
        s.msgType = "news";
        s.level = 2;
        s.uid = "u1";
        s.deviceId = "d1";
        s.vendor = "fcm";
        s.token = "tok";
        s.title = "T";
        s.body = "B";
        s.ts = 1000;
        assertThat(Json.write(s))
                .isEqualTo(
                        "{\"msgId\":\"m1\",\"msgType\":\"news\",\"level\":2,\"uid\":\"u1\","
                                + "\"deviceId\":\"d1\",\"vendor\":\"fcm\",\"token\":\"tok\","
                                + "\"title\":\"T\",\"body\":\"B\",\"ts\":1000}");
        assertThat(Json.write(DeadLetter.of("push.requests", "1-7", "missing field 'title'", "{}")))
                .isEqualTo(
                        "{\"source\":\"push.requests\",\"position\":\"1-7\","
                                + "\"reason\":\"missing field 'title'\",\"raw\":\"{}\"}");
    }

    @Test
    void dropReasonCodesAreStable() {
        assertThat(DropReason.NO_DEVICE.code()).isEqualTo(10);
        assertThat(DropReason.PUSH_DISABLED.code()).isEqualTo(11);
        assertThat(DropReason.DAILY_CAP.code()).isEqualTo(16);
        assertThat(DropReason.TYPE_CAP.wireName()).isEqualTo("type_cap");
    }
}
