package io.pushline.schema.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Fallback;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.schema.registry.DeviceInfo;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class DevicePushSerializerTest {
    private static final DevicePushSerializer S = DevicePushSerializer.INSTANCE;

    @Test
    void flinkUsesIt() {
        assertThat(TypeInformation.of(DevicePush.class).createSerializer(null)).isSameAs(S);
    }

    /** Every field of the request, its target and the device set: a field added later fails. */
    @Test
    void everyFieldRoundTrips() throws Exception {
        PushRequest p = filled(PushRequest.class, 1);
        p.target = filled(Target.class, 2);
        DevicePush d = DevicePush.of(p, filled(DeviceInfo.class, 3));
        assertThat(roundTrip(d)).usingRecursiveComparison().isEqualTo(d);
        DevicePush copy = S.copy(d);
        assertThat(copy).usingRecursiveComparison().isEqualTo(d);
        assertThat(copy.request).isNotSameAs(d.request);
        assertThat(copy.request.target.uids).isNotSameAs(d.request.target.uids);
        assertThat(copy.device).isNotSameAs(d.device);
    }

    @Test
    void absentPartsStayAbsent() throws Exception {
        PushRequest p = new PushRequest();
        p.ts = -5;
        p.seq = 7;
        p.type = null;
        p.target = Target.ofUids(List.of("u1", ""));
        for (DevicePush d :
                new DevicePush[] {
                    DevicePush.of(p, null),
                    new DevicePush(),
                    DevicePush.of(new PushRequest(), new DeviceInfo())
                }) {
            assertThat(roundTrip(d)).usingRecursiveComparison().isEqualTo(d);
        }
    }

    private static DevicePush roundTrip(DevicePush d) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        S.serialize(d, out);
        return S.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    /** An instance with every instance field set to a value that is not its default. */
    private static <T> T filled(Class<T> type, int salt) throws Exception {
        T o = type.getDeclaredConstructor().newInstance();
        for (Field f : type.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getType() == Target.class) {
                continue; // the target is set by the caller
            }
            f.setAccessible(true);
            Class<?> t = f.getType();
            String name = f.getName() + salt;
            if (t == String.class) {
                f.set(o, "v-" + name);
            } else if (t == long.class || t == Long.class) {
                f.set(o, 1_000_000_000_000L + name.hashCode());
            } else if (t == int.class || t == Integer.class) {
                f.set(o, 1000 + name.length());
            } else if (t == boolean.class) {
                f.set(o, !f.getBoolean(o));
            } else if (t == Boolean.class) {
                f.set(o, Boolean.TRUE);
            } else if (t == List.class) {
                f.set(o, new ArrayList<>(List.of("a-" + name, "b-" + name)));
            } else if (t == Fallback.class) {
                f.set(o, Fallback.of("huawei", "t-" + name));
            } else {
                throw new AssertionError("no test value for " + type.getSimpleName() + "." + f);
            }
        }
        return o;
    }
}
