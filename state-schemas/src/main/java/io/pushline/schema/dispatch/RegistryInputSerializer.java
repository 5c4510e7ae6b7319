package io.pushline.schema.dispatch;

import io.pushline.schema.CompactSerializer;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.Fallback;
import io.pushline.schema.SerializerTypeInfo;
import io.pushline.schema.Varints;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A reflection-free serializer for {@link RegistryInput}, which every device event and every
 * request for a device id takes into the registry and which waits in the registry's queue. Wire
 * form: which part is set, the device id, then the event or the request (the request as {@link
 * DevicePushSerializer} writes it). A field added to DeviceEvent must be added here
 * (RegistryInputSerializerTest fails until it is) and is a new wire form.
 */
public final class RegistryInputSerializer extends CompactSerializer<RegistryInput> {
    private static final long serialVersionUID = 1L;
    public static final RegistryInputSerializer INSTANCE =
            new RegistryInputSerializer(CURRENT_FORM);

    private static final int EVENT = 1;
    private static final int REQUEST = 2;

    // Two bits per Boolean of an event (CompactSerializer.bits): absent, false or true.

    /** A bind's fallback channel follows (a bit added after a form: older data never has it). */
    private static final int FALLBACK = 16;

    private final DevicePushSerializer requests;

    private RegistryInputSerializer(int form) {
        super(form);
        requests = DevicePushSerializer.of(form);
    }

    static RegistryInputSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new RegistryInputSerializer(form);
    }

    @Override
    public RegistryInput createInstance() {
        return new RegistryInput();
    }

    @Override
    public RegistryInput copy(RegistryInput from) {
        RegistryInput k = new RegistryInput();
        k.deviceId = from.deviceId;
        k.event = from.event == null ? null : copy(from.event);
        k.request = from.request == null ? null : DevicePushSerializer.copy(from.request);
        return k;
    }

    private static DeviceEvent copy(DeviceEvent from) {
        DeviceEvent e = new DeviceEvent();
        e.ts = from.ts;
        e.seq = from.seq;
        e.type = from.type;
        e.deviceId = from.deviceId;
        e.uid = from.uid;
        e.vendor = from.vendor;
        e.token = from.token;
        e.tz = from.tz;
        e.pushEnabled = from.pushEnabled;
        e.enabled = from.enabled;
        e.fallback = from.fallback;
        return e;
    }

    @Override
    public void serialize(RegistryInput k, DataOutputView out) throws IOException {
        out.writeByte((k.event != null ? EVENT : 0) | (k.request != null ? REQUEST : 0));
        writeString(k.deviceId, out);
        if (k.event != null) {
            write(k.event, out);
        }
        if (k.request != null) {
            requests.write(k.request, out);
        }
    }

    private void write(DeviceEvent e, DataOutputView out) throws IOException {
        out.writeByte(
                bits(e.pushEnabled) | bits(e.enabled) << 2 | (e.fallback != null ? FALLBACK : 0));
        out.writeLong(e.ts);
        Varints.writeSigned(out, e.seq);
        writeString(e.type, out);
        writeString(e.deviceId, out);
        writeString(e.uid, out);
        writeString(e.vendor, out);
        writeString(e.token, out);
        writeString(e.tz, out);
        if (e.fallback != null) {
            writeString(e.fallback.vendor, out);
            writeString(e.fallback.token, out);
        }
    }

    @Override
    public RegistryInput deserialize(DataInputView in) throws IOException {
        RegistryInput k = new RegistryInput();
        int parts = in.readUnsignedByte();
        k.deviceId = readString(in);
        if ((parts & EVENT) != 0) {
            k.event = readEvent(in);
        }
        if ((parts & REQUEST) != 0) {
            k.request = requests.readRequest(in);
        }
        return k;
    }

    private DeviceEvent readEvent(DataInputView in) throws IOException {
        DeviceEvent e = new DeviceEvent();
        int flags = in.readUnsignedByte();
        e.pushEnabled = bool(flags & 3);
        e.enabled = bool(flags >> 2 & 3);
        e.ts = in.readLong();
        e.seq = Varints.readSigned(in);
        e.type = readName(in);
        e.deviceId = readString(in);
        e.uid = readString(in);
        e.vendor = readName(in);
        e.token = readString(in);
        e.tz = readName(in);
        if ((flags & FALLBACK) != 0) {
            e.fallback = Fallback.of(readName(in), readString(in));
        }
        return e;
    }

    @Override
    public TypeSerializerSnapshot<RegistryInput> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /** The version is the wire form; state the generic POJO serializer wrote is migrated. */
    public static final class Snapshot extends CompactSerializer.Snapshot<RegistryInput> {
        public Snapshot() {
            super(RegistryInputSerializer::of);
        }
    }

    /** Makes Flink use this serializer wherever a {@link RegistryInput} travels or is stored. */
    public static final class Factory extends TypeInfoFactory<RegistryInput> {
        @Override
        public TypeInformation<RegistryInput> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(RegistryInput.class, INSTANCE);
        }
    }
}
