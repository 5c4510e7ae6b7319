package io.pushline.schema;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** LEB128 variable-length integers (7 bits a byte), zig-zag for signed values. */
public final class Varints {
    private Varints() {}

    public static void writeUnsigned(DataOutputView out, long v) throws IOException {
        while ((v & ~0x7FL) != 0) {
            out.writeByte((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.writeByte((int) v);
    }

    public static long readUnsigned(DataInputView in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("malformed varint: more than 10 bytes");
    }

    public static void writeSigned(DataOutputView out, long v) throws IOException {
        writeUnsigned(out, (v << 1) ^ (v >> 63));
    }

    public static long readSigned(DataInputView in) throws IOException {
        long z = readUnsigned(in);
        return (z >>> 1) ^ -(z & 1);
    }
}
