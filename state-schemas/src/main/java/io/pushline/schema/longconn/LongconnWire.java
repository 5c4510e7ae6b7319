package io.pushline.schema.longconn;

import io.pushline.schema.CompactSerializer;
import io.pushline.schema.SendRecord;
import io.pushline.schema.SendRecordSerializer;
import io.pushline.schema.Utf8;
import io.pushline.schema.Varints;
import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The long-connection serializers' shared part: a {@link SendRecord} in the compact form of {@link
 * SendRecordSerializer} (flags for its optional parts, then strings and numbers). The generic POJO
 * serializer, reflective, was a third of the ack tracker's time in {@code pushline bench longconn}.
 * A field added to SendRecord is a new flag bit there, which data written before never has set.
 *
 * <p>A send travels and is kept as {@link SendBytes}, written with its length before it. State
 * written before that holds the send inline, without a length; {@link #readLegacySend} reads it.
 */
abstract class LongconnWire<T> extends CompactSerializer<T> {
    private static final long serialVersionUID = 1L;

    LongconnWire(int form) {
        super(form);
    }

    /** A send in the current form: what {@link SendBytes} holds. */
    static void writeSend(SendRecord s, DataOutputView out) throws IOException {
        SendRecordSerializer.INSTANCE.serialize(s, out);
    }

    /** A send of {@link #writeSend}, its strings in {@code form}. */
    static SendRecord readSend(DataInputView in, int form) throws IOException {
        return SendRecordSerializer.of(form).deserialize(in);
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
}
