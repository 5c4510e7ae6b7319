package io.pushline.schema.dispatch;

import io.pushline.schema.CompactSerializer;
import io.pushline.schema.Fallback;
import io.pushline.schema.PushRequest;
import io.pushline.schema.SerializerTypeInfo;
import io.pushline.schema.Target;
import io.pushline.schema.Varints;
import io.pushline.schema.registry.DeviceInfo;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A reflection-free serializer for {@link DevicePush}, the record every push takes from target
 * resolution into the gate, and that waits in the gate's queue: the generic POJO serializer (a
 * reflective set per field, an object made by reflection per nested POJO) was about a third of the
 * gate's time. Wire form (forms 1 and 2 differ in strings only, see {@link CompactSerializer}): the
 * request (flags for its optional parts, strings, numbers, the target's lists) then the device. A
 * field added to PushRequest, Target or DeviceInfo must be added here (DevicePushSerializerTest
 * fails until it is) and is a new wire form.
 */
public final class DevicePushSerializer extends CompactSerializer<DevicePush> {
    private static final long serialVersionUID = 1L;
    public static final DevicePushSerializer INSTANCE = new DevicePushSerializer(CURRENT_FORM);

    private static final int REQUEST = 1;
    private static final int DEVICE = 2;

    /** The device's fallback channel follows it (added after a form: older data never has it). */
    private static final int FALLBACK = 4;

    private static final int LEVEL = 1;
    private static final int DEADLINE = 2;
    private static final int MAX_RATE = 4;
    private static final int AT = 8;
    private static final int TARGET = 16;
    private static final int OTHER_TYPE = 32;

    // Bits added after a form: data written before never has them set, so no new form is needed.
    private static final int INBOX = 64;
    private static final int SAVED_AUDIENCE = 128;

    private DevicePushSerializer(int form) {
        super(form);
    }

    static DevicePushSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new DevicePushSerializer(form);
    }

    @Override
    public DevicePush createInstance() {
        return new DevicePush();
    }

    @Override
    public DevicePush copy(DevicePush from) {
        DevicePush d = new DevicePush();
        d.request = from.request == null ? null : copy(from.request);
        d.device = from.device == null ? null : from.device.copy();
        return d;
    }

    static PushRequest copy(PushRequest from) {
        PushRequest p = new PushRequest();
        p.ts = from.ts;
        p.type = from.type;
        p.msgId = from.msgId;
        p.msgType = from.msgType;
        p.level = from.level;
        p.title = from.title;
        p.body = from.body;
        if (from.target != null) {
            p.target = new Target();
            p.target.uids = from.target.uids == null ? null : new ArrayList<>(from.target.uids);
            p.target.devices =
                    from.target.devices == null ? null : new ArrayList<>(from.target.devices);
            p.target.audience = from.target.audience;
            p.target.savedAudience = from.target.savedAudience;
        }
        p.deadline = from.deadline;
        p.maxRate = from.maxRate;
        p.at = from.at;
        p.inbox = from.inbox;
        p.seq = from.seq;
        return p;
    }

    @Override
    public void serialize(DevicePush d, DataOutputView out) throws IOException {
        out.writeByte(
                (d.request != null ? REQUEST : 0)
                        | (d.device != null ? DEVICE : 0)
                        | (d.device != null && d.device.fallback != null ? FALLBACK : 0));
        if (d.request != null) {
            write(d.request, out);
        }
        if (d.device != null) {
            writeWithFallback(d.device, out);
        }
    }

    void write(PushRequest p, DataOutputView out) throws IOException {
        boolean otherType = !PushRequest.TYPE.equals(p.type);
        out.writeByte(
                (p.level != null ? LEVEL : 0)
                        | (p.deadline != null ? DEADLINE : 0)
                        | (p.maxRate != null ? MAX_RATE : 0)
                        | (p.at != null ? AT : 0)
                        | (p.target != null ? TARGET : 0)
                        | (otherType ? OTHER_TYPE : 0)
                        | (p.inbox != null ? INBOX : 0)
                        | (p.target != null && p.target.savedAudience != null
                                ? SAVED_AUDIENCE
                                : 0));
        out.writeLong(p.ts);
        Varints.writeSigned(out, p.seq);
        if (otherType) {
            writeNullable(p.type, out);
        }
        writeNullable(p.msgId, out);
        writeNullable(p.msgType, out);
        writeNullable(p.title, out);
        writeNullable(p.body, out);
        if (p.level != null) {
            Varints.writeSigned(out, p.level);
        }
        if (p.deadline != null) {
            out.writeLong(p.deadline);
        }
        if (p.maxRate != null) {
            Varints.writeSigned(out, p.maxRate);
        }
        if (p.at != null) {
            out.writeLong(p.at);
        }
        if (p.inbox != null) {
            out.writeBoolean(p.inbox);
        }
        if (p.target != null) {
            writeList(p.target.uids, out);
            writeList(p.target.devices, out);
            writeNullable(p.target.audience, out);
            if (p.target.savedAudience != null) {
                writeNullable(p.target.savedAudience, out);
            }
        }
    }

    /**
     * The device, then its fallback channel when it has one (the caller's flags say which: see
     * {@link #readDevice(DataInputView, boolean)}).
     */
    void writeWithFallback(DeviceInfo d, DataOutputView out) throws IOException {
        write(d, out);
        if (d.fallback != null) {
            writeString(d.fallback.vendor, out);
            writeNullable(d.fallback.token, out);
        }
    }

    private void write(DeviceInfo d, DataOutputView out) throws IOException {
        writeNullable(d.deviceId, out);
        writeNullable(d.uid, out);
        writeNullable(d.vendor, out);
        writeNullable(d.token, out);
        writeNullable(d.tz, out);
        out.writeBoolean(d.pushEnabled);
        out.writeLong(d.boundTs);
        out.writeLong(d.updatedTs);
    }

    @Override
    public DevicePush deserialize(DataInputView in) throws IOException {
        DevicePush d = new DevicePush();
        int parts = in.readUnsignedByte();
        if ((parts & REQUEST) != 0) {
            d.request = readRequest(in);
        }
        if ((parts & DEVICE) != 0) {
            d.device = readDevice(in, (parts & FALLBACK) != 0);
        }
        return d;
    }

    PushRequest readRequest(DataInputView in) throws IOException {
        PushRequest p = new PushRequest();
        int flags = in.readUnsignedByte();
        p.ts = in.readLong();
        p.seq = Varints.readSigned(in);
        if ((flags & OTHER_TYPE) != 0) {
            p.type = readName(in);
        }
        p.msgId = readNullable(in);
        p.msgType = readName(in);
        p.title = readNullable(in);
        p.body = readNullable(in);
        if ((flags & LEVEL) != 0) {
            p.level = (int) Varints.readSigned(in);
        }
        if ((flags & DEADLINE) != 0) {
            p.deadline = in.readLong();
        }
        if ((flags & MAX_RATE) != 0) {
            p.maxRate = (int) Varints.readSigned(in);
        }
        if ((flags & AT) != 0) {
            p.at = in.readLong();
        }
        if ((flags & INBOX) != 0) {
            p.inbox = in.readBoolean();
        }
        if ((flags & TARGET) != 0) {
            p.target = new Target();
            p.target.uids = readList(in);
            p.target.devices = readList(in);
            p.target.audience = readNullable(in);
            if ((flags & SAVED_AUDIENCE) != 0) {
                p.target.savedAudience = readNullable(in);
            }
        }
        return p;
    }

    /** A device of {@link #writeWithFallback}; {@code fallback}: whether one was written. */
    DeviceInfo readDevice(DataInputView in, boolean fallback) throws IOException {
        DeviceInfo d = readDevice(in);
        if (fallback) {
            d.fallback = Fallback.of(readName(in), readNullable(in));
        }
        return d;
    }

    private DeviceInfo readDevice(DataInputView in) throws IOException {
        DeviceInfo d = new DeviceInfo();
        d.deviceId = readNullable(in);
        d.uid = readNullable(in);
        d.vendor = readName(in);
        d.token = readNullable(in);
        d.tz = readName(in);
        d.pushEnabled = in.readBoolean();
        d.boundTs = in.readLong();
        d.updatedTs = in.readLong();
        return d;
    }

    /** Null is the length 0, in both forms. */
    private void writeNullable(String s, DataOutputView out) throws IOException {
        writeString(s, out);
    }

    private String readNullable(DataInputView in) throws IOException {
        return readString(in);
    }

    private void writeList(List<String> list, DataOutputView out) throws IOException {
        Varints.writeUnsigned(out, list == null ? 0 : list.size() + 1L);
        if (list != null) {
            for (String s : list) {
                writeNullable(s, out);
            }
        }
    }

    private List<String> readList(DataInputView in) throws IOException {
        int n = (int) Varints.readUnsigned(in);
        if (n == 0) {
            return null;
        }
        List<String> list = new ArrayList<>(n - 1);
        for (int i = 1; i < n; i++) {
            list.add(readNullable(in));
        }
        return list;
    }

    @Override
    public TypeSerializerSnapshot<DevicePush> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /** The version is the wire form; older forms and generic POJO state are migrated. */
    public static final class Snapshot extends CompactSerializer.Snapshot<DevicePush> {
        public Snapshot() {
            super(DevicePushSerializer::of);
        }

        @Override
        @SuppressWarnings("deprecation")
        protected boolean sameSerializer(TypeSerializerSnapshot<DevicePush> old) {
            return super.sameSerializer(old) || old instanceof DeliverySerializer.Snapshot;
        }
    }

    /** Makes Flink use this serializer wherever a {@link DevicePush} travels or is stored. */
    public static final class Factory extends TypeInfoFactory<DevicePush> {
        @Override
        public TypeInformation<DevicePush> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(DevicePush.class, INSTANCE);
        }
    }
}
