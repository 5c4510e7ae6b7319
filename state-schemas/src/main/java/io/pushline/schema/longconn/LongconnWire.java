package io.pushline.schema.longconn;

import io.pushline.schema.CompactSerializer;
import io.pushline.schema.Fallback;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Utf8;
import io.pushline.schema.Varints;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * The long-connection serializers' shared part: a {@link SendRecord} in compact form (flags for its
 * optional parts, then strings and numbers). The generic POJO serializer, reflective, was a third
 * of the ack tracker's time in {@code pushline bench longconn}. A field added to SendRecord must be
 * added here (LongconnSerializersTest fails until it is): a new flag bit, which data written before
 * never has set.
 *
 * <p>A send travels and is kept as {@link SendBytes}, written with its length before it. State
 * written before that holds the send inline, without a length; {@link #readLegacySend} reads it.
 */
abstract class LongconnWire<T> extends CompactSerializer<T> {
    private static final long serialVersionUID = 1L;

    private static final int DEADLINE = 1;
    private static final int ATTEMPT = 2;
    private static final int FALLBACK = 4;

    LongconnWire(int form) {
        super(form);
    }

    /** A send in the current form: what {@link SendBytes} holds. */
    static void writeSend(SendRecord s, DataOutputView out) throws IOException {
        out.writeByte(
                (s.deadline != null ? DEADLINE : 0)
                        | (s.attempt != null ? ATTEMPT : 0)
                        | (s.fallback != null ? FALLBACK : 0));
        Utf8.write(out, s.msgId);
        Utf8.write(out, s.msgType);
        Varints.writeSigned(out, s.level);
        Utf8.write(out, s.uid);
        Utf8.write(out, s.deviceId);
        Utf8.write(out, s.vendor);
        Utf8.write(out, s.token);
        Utf8.write(out, s.title);
        Utf8.write(out, s.body);
        out.writeLong(s.ts);
        if (s.deadline != null) {
            out.writeLong(s.deadline);
        }
        if (s.attempt != null) {
            Varints.writeSigned(out, s.attempt);
        }
        if (s.fallback != null) {
            Utf8.write(out, s.fallback.vendor);
            Utf8.write(out, s.fallback.token);
        }
    }

    /** A send of {@link #writeSend}, its strings in {@code form}. */
    static SendRecord readSend(DataInputView in, int form) throws IOException {
        int flags = in.readUnsignedByte();
        SendRecord s = new SendRecord();
        s.msgId = string(in, form);
        s.msgType = name(in, form);
        s.level = (int) Varints.readSigned(in);
        s.uid = string(in, form);
        s.deviceId = string(in, form);
        s.vendor = name(in, form);
        s.token = string(in, form);
        s.title = string(in, form);
        s.body = string(in, form);
        s.ts = in.readLong();
        if ((flags & DEADLINE) != 0) {
            s.deadline = in.readLong();
        }
        if ((flags & ATTEMPT) != 0) {
            s.attempt = (int) Varints.readSigned(in);
        }
        if ((flags & FALLBACK) != 0) {
            s.fallback = Fallback.of(name(in, form), string(in, form));
        }
        return s;
    }

    /** The uid of a send of {@link #writeSend} in the current form, skipping what comes before. */
    static String readUid(DataInputView in) throws IOException {
        in.readUnsignedByte();
        skipString(in);
        skipString(in);
        Varints.readSigned(in);
        return Utf8.read(in);
    }

    /** A send of this serializer's form as state held it before {@link SendBytes}. */
    final SendBytes readLegacySend(DataInputView in) throws IOException {
        return SendBytes.of(readSend(in, form()));
    }

    static void writeSized(SendBytes b, DataOutputView out) throws IOException {
        Varints.writeUnsigned(out, b.wire.length);
        out.write(b.wire);
    }

    static SendBytes readSized(DataInputView in) throws IOException {
        long n = Varints.readUnsigned(in);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IOException("malformed send: length " + n);
        }
        SendBytes b = new SendBytes();
        b.wire = new byte[(int) n];
        in.readFully(b.wire);
        return b;
    }

    private static void skipString(DataInputView in) throws IOException {
        long n = Varints.readUnsigned(in);
        if (n > 1) {
            in.skipBytesToRead((int) (n - 1));
        }
    }

    private static String string(DataInputView in, int form) throws IOException {
        return form == STRING_VALUE_FORM ? StringValue.readString(in) : Utf8.read(in);
    }

    private static String name(DataInputView in, int form) throws IOException {
        return form == STRING_VALUE_FORM ? StringValue.readString(in) : Utf8.readName(in);
    }
}
