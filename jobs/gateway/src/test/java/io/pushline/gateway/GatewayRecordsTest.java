package io.pushline.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.gateway.GatewayInput;
import org.junit.jupiter.api.Test;

class GatewayRecordsTest {
    final GatewayRecords records = new GatewayRecords("fcm");

    GatewayInput parse(String text) {
        return records.parse("push.vendor.fcm", text, "0-7");
    }

    @Test
    void readsASend() {
        GatewayInput in =
                parse(
                        "{\"msgId\":\"m1\",\"deviceId\":\"d1\",\"vendor\":\"fcm\",\"token\":\"tok-1\",\"title\":\"T\",\"level\":2,\"ts\":5}");
        assertThat(in.dead).isNull();
        assertThat(in.send.token).isEqualTo("tok-1");
        assertThat(in.send.vendor).isEqualTo("fcm");
    }

    @Test
    void aRecordThatIsNotASendIsADeadLetterWithoutTheToken() {
        GatewayInput noDevice = parse("{\"msgId\":\"m1\",\"token\":\"secret-token-123\"}");
        assertThat(noDevice.dead.reason).contains("deviceId");
        assertThat(noDevice.dead.raw).doesNotContain("secret-token-123");

        GatewayInput other =
                parse(
                        "{\"msgId\":\"m1\",\"deviceId\":\"d\",\"vendor\":\"apns\",\"token\":\"secret-token-123\"}");
        assertThat(other.dead.reason).contains("apns");
        assertThat(other.dead.raw).doesNotContain("secret-token-123");

        assertThat(parse("not json").dead).isNotNull();
        assertThat(parse("[1,2]").dead).isNotNull();
        assertThat(parse("{\"msgId\":\"" + "x".repeat(70_000) + "\"}").dead).isNotNull();
        assertThat(parse("[".repeat(5_000)).dead).isNotNull();
        assertThat(parse(null)).isNull();
    }
}
