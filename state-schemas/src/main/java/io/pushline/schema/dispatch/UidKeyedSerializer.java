package io.pushline.schema.dispatch;

import io.pushline.schema.CompactSerializer;
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
 * A reflection-free serializer for {@link UidKeyed}, the record every uid of a campaign, a list or
 * a uid-targeted push takes into the uid index, and that waits in the uid index's queue. With the
 * generic POJO serializer, reading it (an object made by reflection per record and per nested
 * request, a reflective set per field) was 40% of the uid index's time during a campaign, and
 * writing it a third of the audience resolver's. Wire form: which parts are set, the uid, the
 * device id, time and sequence, then the request (as {@link DevicePushSerializer} writes it) and
 * the device. A field added to UidKeyed, PushRequest or DeviceInfo must be added here
 * (UidKeyedSerializerTest fails until it is) and is a new wire form.
 */
public final class UidKeyedSerializer extends CompactSerializer<UidKeyed> {
    private static final long serialVersionUID = 1L;
    public static final UidKeyedSerializer INSTANCE = new UidKeyedSerializer(CURRENT_FORM);

    private static final int REQUEST = 1;
    private static final int DEVICE = 2;
    private static final int FALLBACK = 4;

    private final DevicePushSerializer parts;

    private UidKeyedSerializer(int form) {
        super(form);
        parts = DevicePushSerializer.of(form);
    }

    static UidKeyedSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new UidKeyedSerializer(form);
    }

    @Override
    public UidKeyed createInstance() {
        return new UidKeyed();
    }

    @Override
    public UidKeyed copy(UidKeyed from) {
        UidKeyed k = new UidKeyed();
        k.uid = from.uid;
        k.request = from.request == null ? null : DevicePushSerializer.copy(from.request);
        k.deviceId = from.deviceId;
        k.device = from.device == null ? null : from.device.copy();
        k.ts = from.ts;
        k.seq = from.seq;
        return k;
    }

    @Override
    public void serialize(UidKeyed k, DataOutputView out) throws IOException {
        out.writeByte(
                (k.request != null ? REQUEST : 0)
                        | (k.device != null ? DEVICE : 0)
                        | (k.device != null && k.device.fallback != null ? FALLBACK : 0));
        writeString(k.uid, out);
        writeString(k.deviceId, out);
        out.writeLong(k.ts);
        Varints.writeSigned(out, k.seq);
        if (k.request != null) {
            parts.write(k.request, out);
        }
        if (k.device != null) {
            parts.writeWithFallback(k.device, out);
        }
    }

    @Override
    public UidKeyed deserialize(DataInputView in) throws IOException {
        UidKeyed k = new UidKeyed();
        int flags = in.readUnsignedByte();
        k.uid = readString(in);
        k.deviceId = readString(in);
        k.ts = in.readLong();
        k.seq = Varints.readSigned(in);
        if ((flags & REQUEST) != 0) {
            k.request = parts.readRequest(in);
        }
        if ((flags & DEVICE) != 0) {
            k.device = parts.readDevice(in, (flags & FALLBACK) != 0);
        }
        return k;
    }

    @Override
    public TypeSerializerSnapshot<UidKeyed> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /** The version is the wire form; state the generic POJO serializer wrote is migrated. */
    public static final class Snapshot extends CompactSerializer.Snapshot<UidKeyed> {
        public Snapshot() {
            super(UidKeyedSerializer::of);
        }
    }

    /** Makes Flink use this serializer wherever a {@link UidKeyed} travels or is stored. */
    public static final class Factory extends TypeInfoFactory<UidKeyed> {
        @Override
        public TypeInformation<UidKeyed> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(UidKeyed.class, INSTANCE);
        }
    }
}
