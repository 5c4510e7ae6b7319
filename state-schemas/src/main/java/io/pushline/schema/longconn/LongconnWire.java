package io.pushline.schema.longconn;

import io.pushline.schema.CompactSerializer;
import io.pushline.schema.Fallback;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Varints;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The long-connection serializers' shared part: a {@link SendRecord} in compact form (flags for its
 * optional parts, then strings and numbers). The generic POJO serializer, reflective, was a third
 * of the ack tracker's time in {@code pushline bench longconn}. A field added to SendRecord must be
 * added here (LongconnSerializersTest fails until it is): a new flag bit, which data written before
 * never has set.
 */
abstract class LongconnWire<T> extends CompactSerializer<T> {
    private static final long serialVersionUID = 1L;

    private static final int DEADLINE = 1;
    private static final int ATTEMPT = 2;
    private static final int FALLBACK = 4;

    LongconnWire(int form) {
        super(form);
    }

    final void writeSend(SendRecord s, DataOutputView out) throws IOException {
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

    final SendRecord readSend(DataInputView in) throws IOException {
        int flags = in.readUnsignedByte();
        SendRecord s = new SendRecord();
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

    static SendRecord copySend(SendRecord s) {
        return s == null ? null : s.copy();
    }
}
