package io.pushline.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DevicePushSerializer;
import io.pushline.schema.gate.GateState;
import io.pushline.schema.gate.GateStateSerializer;
import io.pushline.schema.registry.DeviceInfo;
import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.StringValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The wire forms of the compact serializers: strings, and restoring state of the older form. */
class CompactSerializerFormTest {
    @ParameterizedTest
    @ValueSource(strings = {"", "dev-123", "新闻 推送", "emoji \uD83D\uDE80 ok", "\u0000x\u00ff"})
    void utf8RoundTrips(String s) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(16);
        Utf8.write(out, s);
        Utf8.write(out, null);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        assertThat(Utf8.read(in)).isEqualTo(s);
        assertThat(Utf8.read(in)).isNull();
        assertThat(in.available()).isZero();
    }

    @Test
    void namesReadAsOneSharedInstanceEachAndAnyInputReadsRight() throws IOException {
        java.util.List<String> written = new java.util.ArrayList<>();
        DataOutputSerializer out = new DataOutputSerializer(64);
        java.util.Random random = new java.util.Random(3);
        String longName = "x".repeat(Utf8.MAX_NAME + 1);
        for (int i = 0; i < 5_000; i++) {
            // a few repeating names among many distinct ones (more than the table's slots)
            String s =
                    switch (random.nextInt(6)) {
                        case 0 -> "news";
                        case 1 -> "Europe/Berlin";
                        case 2 -> "新闻";
                        case 3 -> longName;
                        case 4 -> null;
                        default -> "t" + random.nextInt(3_000);
                    };
            written.add(s);
            Utf8.write(out, s);
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        java.util.Map<String, String> first = new java.util.HashMap<>();
        int shared = 0;
        for (String s : written) {
            String read = Utf8.readName(in);
            assertThat(read).isEqualTo(s);
            if (s != null && s.length() <= 4 && !s.startsWith("t")) {
                // "news" and "新闻": with this seed no other string takes their slots
                String before = first.putIfAbsent(s, read);
                if (before != null) {
                    assertThat(read).isSameAs(before);
                    shared++;
                }
            }
        }
        assertThat(shared).isGreaterThan(1_000);
        assertThat(in.available()).isZero();
    }

    @Test
    void twoNamesThatShareASlotStayShared() throws IOException {
        // these two hash to the same first slot
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (int i = 0; i < 10; i++) {
            Utf8.write(out, "security_notice");
            Utf8.write(out, "Asia/Singapore");
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        String a = Utf8.readName(in);
        String b = Utf8.readName(in);
        for (int i = 1; i < 10; i++) {
            assertThat(Utf8.readName(in)).isSameAs(a);
            assertThat(Utf8.readName(in)).isSameAs(b);
        }
    }

    @Test
    void asciiTakesTheBytesOfStringValue() throws IOException {
        DataOutputSerializer a = new DataOutputSerializer(16);
        DataOutputSerializer b = new DataOutputSerializer(16);
        Utf8.write(a, "dev-42");
        StringValue.writeString("dev-42", b);
        assertThat(a.getCopyOfBuffer()).isEqualTo(b.getCopyOfBuffer());
    }

    /** State of form 1 (StringValue strings) is read by the serializer its snapshot restores. */
    @Test
    void olderFormIsRestoredAndMigrated() throws IOException {
        DevicePush d = delivery();
        TypeSerializer<DevicePush> old = restored(DevicePushSerializer.INSTANCE, 1);
        byte[] form1 = bytes(old, d);
        byte[] form2 = bytes(DevicePushSerializer.INSTANCE, d);
        // Non-ASCII text is where the forms differ: one form's reader cannot read the other.
        assertThat(form1).isNotEqualTo(form2);
        assertThat(old.deserialize(new DataInputDeserializer(form1)))
                .usingRecursiveComparison()
                .isEqualTo(d);
        assertThat(DevicePushSerializer.INSTANCE.deserialize(new DataInputDeserializer(form2)))
                .usingRecursiveComparison()
                .isEqualTo(d);
        // form 1 as StringValue wrote it: the title's characters one varint each.
        DataOutputSerializer title = new DataOutputSerializer(16);
        StringValue.writeString(d.request.title, title);
        assertThat(indexOf(form1, title.getCopyOfBuffer())).isNotNegative();

        assertThat(compatibility(DevicePushSerializer.INSTANCE, 1).isCompatibleAfterMigration())
                .isTrue();
        assertThat(compatibility(DevicePushSerializer.INSTANCE, 2).isCompatibleAsIs()).isTrue();
    }

    @Test
    void gateStateWindowsKeepNonAsciiNamesInBothForms() throws IOException {
        GateState s = new GateState();
        s.lastCountedPass = 1_000_000L;
        s.windowTypes = new String[] {"资讯", "news"};
        s.windowStarts = new long[] {999_000L, 998_000L};
        s.windowCounts = new int[] {2, 1};
        for (int form = 1; form <= CompactSerializer.CURRENT_FORM; form++) {
            TypeSerializer<GateState> ser = restored(GateStateSerializer.INSTANCE, form);
            GateState back = ser.deserialize(new DataInputDeserializer(bytes(ser, s)));
            assertThat(back.windowTypes).containsExactly("资讯", "news");
            assertThat(back.windowCounts).containsExactly(2, 1);
        }
        assertThat(compatibility(GateStateSerializer.INSTANCE, 1).isCompatibleAfterMigration())
                .isTrue();
    }

    @Test
    void unknownFormIsRefused() {
        TypeSerializerSnapshot<DevicePush> snap =
                DevicePushSerializer.INSTANCE.snapshotConfiguration();
        assertThatThrownBy(
                        () ->
                                snap.readSnapshot(
                                        CompactSerializer.CURRENT_FORM + 1,
                                        new DataInputDeserializer(new byte[0]),
                                        getClass().getClassLoader()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("snapshot version 3");
    }

    /**
     * A serializer restored for form-1 state describes its own bytes as form 1 when asked again.
     */
    @Test
    void restoredSerializerSnapshotsItsOwnForm() throws IOException {
        TypeSerializer<DevicePush> old = restored(DevicePushSerializer.INSTANCE, 1);
        TypeSerializerSnapshot<DevicePush> again = old.snapshotConfiguration();
        assertThat(again.getCurrentVersion()).isEqualTo(1);
        assertThat(again.restoreSerializer()).isEqualTo(old);
        assertThat(
                        DevicePushSerializer.INSTANCE
                                .snapshotConfiguration()
                                .resolveSchemaCompatibility(again)
                                .isCompatibleAfterMigration())
                .isTrue();
        assertThat(DevicePushSerializer.INSTANCE.snapshotConfiguration().getCurrentVersion())
                .isEqualTo(CompactSerializer.CURRENT_FORM);
    }

    @Test
    void serializersOfDifferentFormsAreNotEqual() throws IOException {
        TypeSerializer<DevicePush> old = restored(DevicePushSerializer.INSTANCE, 1);
        assertThat(old).isNotEqualTo(DevicePushSerializer.INSTANCE);
        assertThat(restored(DevicePushSerializer.INSTANCE, 2))
                .isEqualTo(DevicePushSerializer.INSTANCE);
    }

    private static DevicePush delivery() {
        PushRequest p = new PushRequest();
        p.ts = 5;
        p.msgId = "m-1";
        p.msgType = "资讯";
        p.title = "今晚 8 点直播";
        p.body = "body";
        DeviceInfo dev = new DeviceInfo();
        dev.deviceId = "d-1";
        dev.uid = "u-1";
        dev.vendor = "huawei";
        dev.tz = "Asia/Shanghai";
        return DevicePush.of(p, dev);
    }

    /** The serializer Flink restores from a snapshot written in {@code form}. */
    private static <T> TypeSerializer<T> restored(TypeSerializer<T> current, int form)
            throws IOException {
        TypeSerializerSnapshot<T> snap = current.snapshotConfiguration();
        snap.readSnapshot(form, new DataInputDeserializer(new byte[0]), null);
        return snap.restoreSerializer();
    }

    private static <T> TypeSerializerSchemaCompatibility<T> compatibility(
            TypeSerializer<T> current, int oldForm) throws IOException {
        TypeSerializerSnapshot<T> old = current.snapshotConfiguration();
        old.readSnapshot(oldForm, new DataInputDeserializer(new byte[0]), null);
        return current.snapshotConfiguration().resolveSchemaCompatibility(old);
    }

    private static <T> byte[] bytes(TypeSerializer<T> s, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(value, out);
        return out.getCopyOfBuffer();
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
