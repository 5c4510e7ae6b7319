package io.pushline.schema.longconn;

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
 * A reflection-free serializer for {@link DeviceLink}, the ack tracker's one state value per
 * device, read and written on every input. Wire form: flags (online: 2 bits absent, false, true;
 * version and learned delay present), the version, the learned delay, then the tracked messages,
 * each send as {@link SendBytes}.
 */
public final class DeviceLinkSerializer extends LongconnWire<DeviceLink> {
    private static final long serialVersionUID = 1L;
    public static final DeviceLinkSerializer INSTANCE = new DeviceLinkSerializer(CURRENT_FORM);

    private static final int VERSION = 4;
    private static final int LEARNED = 8;

    /** Before each tracked send: none, the send inline (before {@link SendBytes}), its bytes. */
    private static final int NO_SEND = 0;

    private static final int LEGACY_SEND = 1;
    private static final int SEND = 2;

    private DeviceLinkSerializer(int form) {
        super(form);
    }

    static DeviceLinkSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new DeviceLinkSerializer(form);
    }

    @Override
    public DeviceLink createInstance() {
        return new DeviceLink();
    }

    @Override
    public DeviceLink copy(DeviceLink from) {
        DeviceLink d = new DeviceLink();
        d.online = from.online;
        d.appVersion = from.appVersion;
        d.learnedDelay = from.learnedDelay;
        if (from.tracked != null) {
            d.tracked = new TrackedSend[from.tracked.length];
            for (int i = 0; i < d.tracked.length; i++) {
                d.tracked[i] = copy(from.tracked[i]);
            }
        }
        return d;
    }

    private static TrackedSend copy(TrackedSend from) {
        TrackedSend t = new TrackedSend();
        t.msgId = from.msgId;
        t.sentTs = from.sentTs;
        t.retries = from.retries;
        t.lastAttempt = from.lastAttempt;
        t.delay = from.delay;
        t.send = from.send;
        return t;
    }

    @Override
    public void serialize(DeviceLink d, DataOutputView out) throws IOException {
        out.writeByte(
                bits(d.online)
                        | (d.appVersion != null ? VERSION : 0)
                        | (d.learnedDelay != null ? LEARNED : 0));
        if (d.appVersion != null) {
            writeString(d.appVersion, out);
        }
        if (d.learnedDelay != null) {
            Varints.writeSigned(out, d.learnedDelay);
        }
        Varints.writeUnsigned(out, d.tracked == null ? 0 : d.tracked.length);
        if (d.tracked != null) {
            for (TrackedSend t : d.tracked) {
                writeString(t.msgId, out);
                out.writeLong(t.sentTs);
                Varints.writeUnsigned(out, t.retries);
                out.writeLong(t.lastAttempt);
                Varints.writeSigned(out, t.delay);
                if (t.send == null) {
                    out.writeByte(NO_SEND);
                } else {
                    out.writeByte(SEND);
                    writeSized(t.send, out);
                }
            }
        }
    }

    @Override
    public DeviceLink deserialize(DataInputView in) throws IOException {
        DeviceLink d = new DeviceLink();
        int flags = in.readUnsignedByte();
        d.online = bool(flags & 3);
        if ((flags & VERSION) != 0) {
            d.appVersion = readName(in);
        }
        if ((flags & LEARNED) != 0) {
            d.learnedDelay = Varints.readSigned(in);
        }
        int n = (int) Varints.readUnsigned(in);
        if (n > 0) {
            d.tracked = new TrackedSend[n];
            for (int i = 0; i < n; i++) {
                TrackedSend t = new TrackedSend();
                t.msgId = readString(in);
                t.sentTs = in.readLong();
                t.retries = (int) Varints.readUnsigned(in);
                t.lastAttempt = in.readLong();
                t.delay = Varints.readSigned(in);
                int send = in.readUnsignedByte();
                if (send == SEND) {
                    t.send = readSized(in);
                } else if (send == LEGACY_SEND) {
                    t.send = readLegacySend(in);
                } else if (send != NO_SEND) {
                    throw new IOException("malformed tracked send: marker " + send);
                }
                d.tracked[i] = t;
            }
        }
        return d;
    }

    @Override
    public TypeSerializerSnapshot<DeviceLink> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /** The version is the wire form. */
    public static final class Snapshot extends LongconnWire.Snapshot<DeviceLink> {
        public Snapshot() {
            super(DeviceLinkSerializer::of);
        }
    }

    /** Makes Flink use this serializer wherever a {@link DeviceLink} is stored. */
    public static final class Factory extends TypeInfoFactory<DeviceLink> {
        @Override
        public TypeInformation<DeviceLink> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(DeviceLink.class, INSTANCE);
        }
    }
}
