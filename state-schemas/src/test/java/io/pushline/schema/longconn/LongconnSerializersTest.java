package io.pushline.schema.longconn;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Fallback;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Utf8;
import io.pushline.schema.Varints;
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

    @Test
    void everyFieldOfAnActionRoundTrips() throws Exception {
        assertRoundTrip(LongconnActionSerializer.INSTANCE, filled(LongconnAction.class, 7));
        LongconnAction untracked =
                LongconnAction.of(5, "m", "d", LongconnAction.UNTRACKED, 0, null);
        assertRoundTrip(LongconnActionSerializer.INSTANCE, untracked);
        assertThat(TypeInformation.of(LongconnAction.class).createSerializer(null))
                .isInstanceOf(LongconnActionSerializer.class);
    }

    @Test
    void aSendDecodesToWhatWasEncoded() throws Exception {
        SendRecord s = filled(SendRecord.class, 5);
        SendBytes b = SendBytes.of(s);
        assertThat(b.decode()).usingRecursiveComparison().isEqualTo(s);
        assertThat(b.uid()).isEqualTo(s.uid);
        s.deadline = null;
        s.attempt = null;
        s.fallback = null;
        s.title = null;
        assertThat(SendBytes.of(s).decode()).usingRecursiveComparison().isEqualTo(s);
    }

    /** State and queued events written when the send was held inline still read. */
    @Test
    void sendsWrittenInlineBeforeStillRead() throws Exception {
        SendRecord s = filled(SendRecord.class, 6);
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeByte(4 | 2); // online true, version present
        Utf8.write(out, "7.1.0");
        Varints.writeUnsigned(out, 2);
        for (String msgId : new String[] {"m1", "m2"}) {
            Utf8.write(out, msgId);
            out.writeLong(1_000L);
            Varints.writeUnsigned(out, 3);
            out.writeLong(2_000L);
            Varints.writeSigned(out, 40_000L);
            out.writeBoolean(msgId.equals("m1"));
            if (msgId.equals("m1")) {
                LongconnWire.writeSend(s, out);
            }
        }
        DeviceLink d =
                DeviceLinkSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(d.online).isTrue();
        assertThat(d.appVersion).isEqualTo("7.1.0");
        assertThat(d.tracked).extracting(t -> t.msgId).containsExactly("m1", "m2");
        assertThat(d.tracked[0].retries).isEqualTo(3);
        assertThat(d.tracked[0].delay).isEqualTo(40_000L);
        assertThat(d.tracked[0].send.decode()).usingRecursiveComparison().isEqualTo(s);
        assertThat(d.tracked[1].send).isNull();

        out.clear();
        out.writeByte(8 | 16); // msgId and an inline send
        out.writeLong(5_000L);
        Varints.writeSigned(out, 7);
        Utf8.write(out, LongconnEvent.SENT);
        Utf8.write(out, "dev");
        Utf8.write(out, "m9");
        LongconnWire.writeSend(s, out);
        LongconnEvent e =
                LongconnEventSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(e.msgId).isEqualTo("m9");
        assertThat(e.seq).isEqualTo(7);
        assertThat(e.send.decode()).usingRecursiveComparison().isEqualTo(s);
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
            } else if (t == boolean.class) {
                f.set(o, true);
            } else if (t == Boolean.class) {
                f.set(o, Boolean.FALSE);
            } else if (t == SendRecord.class) {
                f.set(o, filled(SendRecord.class, salt + 10));
            } else if (t == SendBytes.class) {
                f.set(o, SendBytes.of(filled(SendRecord.class, salt + 10)));
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
