package io.pushline.schema.longconn;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Fallback;
import io.pushline.schema.SendRecord;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The hand-written serializers keep every field (a field added without them fails here). */
class LongconnSerializersTest {
    @Test
    void everyFieldOfADeviceRoundTrips() throws Exception {
        DeviceLink d = filled(DeviceLink.class, 1);
        d.tracked = new TrackedSend[] {filled(TrackedSend.class, 2), filled(TrackedSend.class, 3)};
        d.tracked[1].send = null;
        assertRoundTrip(DeviceLinkSerializer.INSTANCE, d);
        DeviceLink empty = new DeviceLink();
        empty.online = false;
        assertRoundTrip(DeviceLinkSerializer.INSTANCE, empty);
        assertThat(TypeInformation.of(DeviceLink.class).toString()).doesNotContain("Pojo");
    }

    @Test
    void everyFieldOfAnEventRoundTrips() throws Exception {
        LongconnEvent e = filled(LongconnEvent.class, 4);
        assertRoundTrip(LongconnEventSerializer.INSTANCE, e);
        assertRoundTrip(
                LongconnEventSerializer.INSTANCE, LongconnEvent.presence(-5, "d", true, null));
        assertThat(TypeInformation.of(LongconnEvent.class).createSerializer(null))
                .isInstanceOf(LongconnEventSerializer.class);
    }

    private static <T> void assertRoundTrip(TypeSerializer<T> s, T value) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(value, out);
        T back = s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back).usingRecursiveComparison().isEqualTo(value);
        assertThat(s.copy(value)).usingRecursiveComparison().isEqualTo(value);
    }

    /** Every instance field set to a value that is not its default. */
    @SuppressWarnings("unchecked")
    static <T> T filled(Class<T> type, int salt) throws Exception {
        T o = type.getDeclaredConstructor().newInstance();
        for (Field f : type.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            Class<?> t = f.getType();
            String name = f.getName() + salt;
            if (t == String.class) {
                f.set(o, "v-" + name);
            } else if (t == long.class || t == Long.class) {
                f.set(o, 1_000_000_000_000L + name.hashCode());
            } else if (t == int.class || t == Integer.class) {
                f.set(o, 1000 + name.length());
            } else if (t == Boolean.class) {
                f.set(o, Boolean.FALSE);
            } else if (t == SendRecord.class) {
                f.set(o, filled(SendRecord.class, salt + 10));
            } else if (t == Fallback.class) {
                f.set(o, Fallback.of("huawei", "t-" + name));
            } else if (t == TrackedSend[].class) {
                continue; // set by the caller
            } else {
                throw new AssertionError("no test value for " + type.getSimpleName() + "." + f);
            }
        }
        return o;
    }
}
