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
 * A reflection-free serializer for {@link LongconnEvent}, which every input of the ack tracker is
 * on its way to the tracker and while it waits for the watermark. Wire form: flags (online: 2 bits;
 * version, msgId and send present; the send is {@link SendBytes}, so it is copied, not decoded),
 * time, order, type, device, then the optional parts.
 */
public final class LongconnEventSerializer extends LongconnWire<LongconnEvent> {
    private static final long serialVersionUID = 1L;
    public static final LongconnEventSerializer INSTANCE =
            new LongconnEventSerializer(CURRENT_FORM);

    private static final int VERSION = 4;
    private static final int MSG = 8;

    /** Before {@link SendBytes}: the send inline. Read, never written. */
    private static final int LEGACY_SEND = 16;

    private static final int SEND = 32;

    private LongconnEventSerializer(int form) {
        super(form);
    }

    static LongconnEventSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new LongconnEventSerializer(form);
    }

    @Override
    public LongconnEvent createInstance() {
        return new LongconnEvent();
    }

    @Override
    public LongconnEvent copy(LongconnEvent from) {
        LongconnEvent e = new LongconnEvent();
        e.ts = from.ts;
        e.type = from.type;
        e.msgId = from.msgId;
        e.deviceId = from.deviceId;
        e.online = from.online;
        e.appVersion = from.appVersion;
        e.send = from.send;
        e.seq = from.seq;
        return e;
    }

    @Override
    public void serialize(LongconnEvent e, DataOutputView out) throws IOException {
        out.writeByte(
                bits(e.online)
                        | (e.appVersion != null ? VERSION : 0)
                        | (e.msgId != null ? MSG : 0)
                        | (e.send != null ? SEND : 0));
        out.writeLong(e.ts);
        Varints.writeSigned(out, e.seq);
        writeString(e.type, out);
        writeString(e.deviceId, out);
        if (e.msgId != null) {
            writeString(e.msgId, out);
        }
        if (e.appVersion != null) {
            writeString(e.appVersion, out);
        }
        if (e.send != null) {
            writeSized(e.send, out);
        }
    }

    @Override
    public LongconnEvent deserialize(DataInputView in) throws IOException {
        LongconnEvent e = new LongconnEvent();
        int flags = in.readUnsignedByte();
        e.online = bool(flags & 3);
        e.ts = in.readLong();
        e.seq = Varints.readSigned(in);
        e.type = readName(in);
        e.deviceId = readString(in);
        if ((flags & MSG) != 0) {
            e.msgId = readString(in);
        }
        if ((flags & VERSION) != 0) {
            e.appVersion = readName(in);
        }
        if ((flags & SEND) != 0) {
            e.send = readSized(in);
        } else if ((flags & LEGACY_SEND) != 0) {
            e.send = readLegacySend(in);
        }
        return e;
    }

    @Override
    public TypeSerializerSnapshot<LongconnEvent> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /** The version is the wire form. */
    public static final class Snapshot extends LongconnWire.Snapshot<LongconnEvent> {
        public Snapshot() {
            super(LongconnEventSerializer::of);
        }
    }

    /** Makes Flink use this serializer wherever a {@link LongconnEvent} travels or waits. */
    public static final class Factory extends TypeInfoFactory<LongconnEvent> {
        @Override
        public TypeInformation<LongconnEvent> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(LongconnEvent.class, INSTANCE);
        }
    }
}
