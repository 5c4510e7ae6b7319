package io.pushline.schema.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.DeviceEvent;
import io.pushline.schema.Fallback;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class RegistryInputSerializerTest {
    private static final RegistryInputSerializer S = RegistryInputSerializer.INSTANCE;

    @Test
    void flinkUsesIt() {
        assertThat(TypeInformation.of(RegistryInput.class).createSerializer(null)).isSameAs(S);
    }

    /** Every field of the event set: a field added to DeviceEvent later fails here. */
    @Test
    void everyFieldOfAnEventRoundTrips() throws Exception {
        DeviceEvent e = new DeviceEvent();
        int i = 0;
        for (Field f : DeviceEvent.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            Class<?> t = f.getType();
            if (t == String.class) {
                f.set(e, "v-" + f.getName());
            } else if (t == long.class) {
                f.setLong(e, 1_000_000_000_000L + ++i);
            } else if (t == Boolean.class) {
                f.set(e, ++i % 2 == 0);
            } else if (t == Fallback.class) {
                f.set(e, Fallback.of("fcm", "t-" + f.getName()));
            } else {
                throw new AssertionError("no test value for DeviceEvent." + f);
            }
        }
        RegistryInput k = RegistryInput.of(e);
        assertThat(roundTrip(k)).usingRecursiveComparison().isEqualTo(k);
        RegistryInput copy = S.copy(k);
        assertThat(copy).usingRecursiveComparison().isEqualTo(k);
        assertThat(copy.event).isNotSameAs(k.event);
    }

    @Test
    void eachBooleanKeepsAbsentFalseAndTrue() throws Exception {
        Boolean[] values = {null, false, true};
        for (Boolean pushEnabled : values) {
            for (Boolean enabled : values) {
                DeviceEvent e = DeviceEvent.switchTo(5, "d1", true);
                e.enabled = enabled;
                e.pushEnabled = pushEnabled;
                RegistryInput back = roundTrip(RegistryInput.of(e));
                assertThat(back.event.enabled).isEqualTo(enabled);
                assertThat(back.event.pushEnabled).isEqualTo(pushEnabled);
            }
        }
    }

    @Test
    void aRequestForADeviceRoundTrips() throws Exception {
        PushRequest p = new PushRequest();
        p.ts = 7;
        p.seq = -3;
        p.msgId = "m1";
        p.msgType = "news";
        p.title = "标题";
        p.level = 2;
        p.target = Target.ofUids(List.of("u1"));
        RegistryInput k = RegistryInput.of("d9", p);
        RegistryInput back = roundTrip(k);
        assertThat(back).usingRecursiveComparison().isEqualTo(k);
        assertThat(back.event).isNull();
        assertThat(back.ts()).isEqualTo(7);
        assertThat(back.seq()).isEqualTo(-3);
        assertThat(roundTrip(new RegistryInput()))
                .usingRecursiveComparison()
                .isEqualTo(new RegistryInput());
    }

    private static RegistryInput roundTrip(RegistryInput k) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        S.serialize(k, out);
        return S.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
