package io.pushline.schema.longconn;

import io.pushline.schema.SendRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * A send as the ack tracker carries and keeps it: its compact wire form, made once when the send is
 * read from its topic. Most tracked messages are acked, and an ack needs only the uid, so the whole
 * send is decoded only for a retry or a fallback; until then it is copied as bytes. Decoding it on
 * every state read and encoding it on every write was a quarter of the tracker's time in {@code
 * pushline bench longconn}.
 *
 * <p>The reminder meter keeps its queue in this form too.
 *
 * <p>A POJO (for the actions' serializer), but never changed after it is made: copies may share it.
 */
public class SendBytes {
    /** The send in {@link LongconnWire#writeSend} form (current strings). */
    public byte[] wire;

    public SendBytes() {}

    public static SendBytes of(SendRecord send) {
        DataOutputSerializer out = new DataOutputSerializer(256);
        try {
            LongconnWire.writeSend(send, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SendBytes b = new SendBytes();
        b.wire = out.getCopyOfBuffer();
        return b;
    }

    public SendRecord decode() {
        return decode(wire);
    }

    /** A send from the bytes of {@link #of}'s {@code wire}. */
    public static SendRecord decode(byte[] wire) {
        try {
            return LongconnWire.readSend(
                    new DataInputDeserializer(wire), LongconnWire.CURRENT_FORM);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The send's uid, without decoding the rest. */
    public String uid() {
        try {
            return LongconnWire.readUid(new DataInputDeserializer(wire));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SendBytes && Arrays.equals(wire, ((SendBytes) o).wire);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(wire);
    }

    @Override
    public String toString() {
        return "SendBytes{" + (wire == null ? 0 : wire.length) + " bytes}";
    }
}
