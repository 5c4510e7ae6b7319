package io.pushline.schema.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Fallback;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.schema.registry.DeviceInfo;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class UidKeyedSerializerTest {
    private static final UidKeyedSerializer S = UidKeyedSerializer.INSTANCE;

    @Test
    void flinkUsesIt() {
        assertThat(TypeInformation.of(UidKeyed.class).createSerializer(null)).isSameAs(S);
    }

    /**
     * Every field of UidKeyed and of the device set: a field added to either later fails here (the
     * request's fields are DevicePushSerializerTest's).
     */
    @Test
    void everyFieldOfAChangeRoundTrips() throws Exception {
        DeviceInfo d = new DeviceInfo();
        int i = 0;
        for (Field f : DeviceInfo.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            f.setAccessible(true);
            Class<?> t = f.getType();
            if (t == String.class) {
                f.set(d, "v-" + f.getName());
            } else if (t == long.class) {
                f.setLong(d, 1_000_000_000_000L + ++i);
            } else if (t == boolean.class) {
                f.setBoolean(d, true);
            } else if (t == Fallback.class) {
                f.set(d, Fallback.of("fcm", "t-" + f.getName()));
            } else {
                throw new AssertionError("no test value for DeviceInfo." + f);
            }
        }
        UidKeyed k = UidKeyed.change("u1", "d1", d, 1_700_000_000_123L, -5);
        for (Field f : UidKeyed.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getName().equals("request")) {
                continue;
            }
            assertThat(f.get(k)).as("UidKeyed.%s has a test value", f.getName()).isNotNull();
        }
        UidKeyed back = roundTrip(k);
        assertThat(back).usingRecursiveComparison().isEqualTo(k);
        UidKeyed copy = S.copy(k);
        assertThat(copy).usingRecursiveComparison().isEqualTo(k);
        assertThat(copy.device).isNotSameAs(k.device);
    }

    @Test
    void aRequestAndALeavingDeviceRoundTrip() throws Exception {
        PushRequest p = new PushRequest();
        p.ts = 7;
        p.seq = 3;
        p.msgId = "m1";
        p.msgType = "资讯";
        p.title = "今晚 8 点直播";
        p.body = "";
        p.level = 2;
        p.deadline = 99L;
        p.target = Target.ofUids(List.of("u1", "u2"));
        UidKeyed request = UidKeyed.request("u1", p);
        UidKeyed back = roundTrip(request);
        assertThat(back).usingRecursiveComparison().isEqualTo(request);
        assertThat(back.isRequest()).isTrue();
        assertThat(back.deviceId).isNull();
        UidKeyed copy = S.copy(request);
        assertThat(copy).usingRecursiveComparison().isEqualTo(request);
        assertThat(copy.request).isNotSameAs(p);
        assertThat(copy.request.target.uids).isNotSameAs(p.target.uids);

        UidKeyed left = UidKeyed.change("u1", "d1", null, 8, 4);
        assertThat(roundTrip(left)).usingRecursiveComparison().isEqualTo(left);
        assertThat(roundTrip(new UidKeyed())).usingRecursiveComparison().isEqualTo(new UidKeyed());
    }

    private static UidKeyed roundTrip(UidKeyed k) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        S.serialize(k, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        UidKeyed back = S.deserialize(in);
        assertThat(in.available()).isZero();
        return back;
    }
}
