package io.pushline.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class VisibleSendsTest {
    private static byte[] send(String msgId, String deviceId) {
        return ("{\"msgId\":\""
                        + msgId
                        + "\",\"msgType\":\"promo\",\"level\":1,\"uid\":\"u\","
                        + "\"deviceId\":\""
                        + deviceId
                        + "\",\"vendor\":\"fcm\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static boolean add(VisibleSends.Devices seen, String deviceId) {
        byte[] json = send("m", deviceId);
        return seen.add(json, VisibleSends.valueAt(json, "\"deviceId\":\"".getBytes()));
    }

    @Test
    void aDeviceSeenTwiceIsADuplicateWhateverItsIdLooksLike() {
        VisibleSends.Devices seen = new VisibleSends.Devices();
        for (String id :
                new String[] {"d1", "d0", "d01", "rt-d1", "d2147483648", "d", "dx1", "é"}) {
            assertThat(add(seen, id)).as(id).isTrue();
            assertThat(add(seen, id)).as(id + " again").isFalse();
        }
        assertThat(add(seen, "d2147483647")).isTrue();
        assertThat(add(seen, "d2147483647")).isFalse();
    }

    @Test
    void fieldsAreReadFromTheBytes() {
        byte[] json = send("campaign-2", "d42");
        assertThat(VisibleSends.string(json, VisibleSends.valueAt(json, "\"msgId\":\"".getBytes())))
                .isEqualTo("campaign-2");
        assertThat(VisibleSends.string(json, VisibleSends.valueAt(json, "\"token\":\"".getBytes())))
                .isEmpty();
    }
}
