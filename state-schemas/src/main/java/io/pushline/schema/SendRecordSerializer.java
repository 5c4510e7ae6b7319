package io.pushline.schema;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A reflection-free serializer for {@link SendRecord}, the record every send takes from the gate to
 * its vendor's pacer, and that waits in the pacer's backlog. With the generic POJO serializer,
 * writing it was a quarter of the gate's time during a campaign. Wire form: which optional parts
 * are set, the strings, level, time, then the optional parts. A field added to SendRecord must be
 * added here (SendRecordSerializerTest fails until it is) as a new flag bit, which data written
 * before never has set. The long-connection job keeps its sends in this form too ({@code
 * LongconnWire}), since before SendRecord had this serializer.
 */
public final class SendRecordSerializer extends CompactSerializer<SendRecord> {
    private static final long serialVersionUID = 1L;
    public static final SendRecordSerializer INSTANCE = new SendRecordSerializer(CURRENT_FORM);

    private static final int DEADLINE = 1;
    private static final int ATTEMPT = 2;
    private static final int FALLBACK = 4;

    private SendRecordSerializer(int form) {
        super(form);
    }

    /** The serializer of wire {@code form} (see {@link CompactSerializer}). */
    public static SendRecordSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new SendRecordSerializer(form);
    }

    @Override
    public SendRecord createInstance() {
        return new SendRecord();
    }

    @Override
    public SendRecord copy(SendRecord from) {
        return from.copy();
    }

    @Override
    public void serialize(SendRecord s, DataOutputView out) throws IOException {
        out.writeByte(
                (s.deadline != null ? DEADLINE : 0)
                        | (s.attempt != null ? ATTEMPT : 0)
                        | (s.fallback != null ? FALLBACK : 0));
        writeString(s.msgId, out);
        writeString(s.msgType, out);
        Varints.writeSigned(out, s.level);
        writeString(s.uid, out);
        writeString(s.deviceId, out);
        writeString(s.vendor, out);
        writeString(s.token, out);
        writeString(s.title, out);
        writeString(s.body, out);
        out.writeLong(s.ts);
        if (s.deadline != null) {
            out.writeLong(s.deadline);
        }
        if (s.attempt != null) {
            Varints.writeSigned(out, s.attempt);
        }
        if (s.fallback != null) {
            writeString(s.fallback.vendor, out);
            writeString(s.fallback.token, out);
        }
    }

    @Override
    public SendRecord deserialize(DataInputView in) throws IOException {
        SendRecord s = new SendRecord();
        int flags = in.readUnsignedByte();
        s.msgId = readString(in);
        s.msgType = readName(in);
        s.level = (int) Varints.readSigned(in);
        s.uid = readString(in);
        s.deviceId = readString(in);
        s.vendor = readName(in);
        s.token = readString(in);
        s.title = readString(in);
        s.body = readString(in);
        s.ts = in.readLong();
        if ((flags & DEADLINE) != 0) {
            s.deadline = in.readLong();
        }
        if ((flags & ATTEMPT) != 0) {
            s.attempt = (int) Varints.readSigned(in);
        }
        if ((flags & FALLBACK) != 0) {
            s.fallback = Fallback.of(readName(in), readString(in));
        }
        return s;
    }

    @Override
    public TypeSerializerSnapshot<SendRecord> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /** The version is the wire form; state the generic POJO serializer wrote is migrated. */
    public static final class Snapshot extends CompactSerializer.Snapshot<SendRecord> {
        public Snapshot() {
            super(SendRecordSerializer::of);
        }
    }

    /** Makes Flink use this serializer wherever a {@link SendRecord} travels or is stored. */
    public static final class Factory extends TypeInfoFactory<SendRecord> {
        @Override
        public TypeInformation<SendRecord> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(SendRecord.class, INSTANCE);
        }
    }
}
