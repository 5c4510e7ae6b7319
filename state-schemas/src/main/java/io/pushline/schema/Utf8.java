package io.pushline.schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Nullable strings as a varint (UTF-8 length + 1; 0 for null) and their UTF-8 bytes. Flink's {@code
 * StringValue} form costs a stream call and a varint per character and a thread-local buffer lookup
 * per string, which showed up in the gate's profile; here a string is one bulk read, and ASCII text
 * (ids, names) is copied, not decoded. The same bytes as {@code StringValue} for ASCII text.
 */
public final class Utf8 {
    private Utf8() {}

    public static void write(DataOutputView out, String s) throws IOException {
        if (s == null) {
            out.writeByte(0);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        Varints.writeUnsigned(out, b.length + 1L);
        out.write(b);
    }

    public static String read(DataInputView in) throws IOException {
        byte[] b = readBytes(in);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** A string's UTF-8 bytes, null for null. */
    private static byte[] readBytes(DataInputView in) throws IOException {
        long n = Varints.readUnsigned(in);
        if (n == 0) {
            return null;
        }
        if (n - 1 > Integer.MAX_VALUE - 8) {
            throw new IOException("malformed string: length " + (n - 1));
        }
        byte[] b = new byte[(int) (n - 1)];
        in.readFully(b);
        return b;
    }

    /** Names longer than this are read as any string. */
    static final int MAX_NAME = 48;

    private static final int SLOTS = 1024;

    /** Immutable, so a slot read by another thread sees it whole. */
    private record Name(byte[] bytes, String string) {}

    private static final Name[] NAMES = new Name[SLOTS];

    /**
     * As {@link #read}, for a field whose values repeat from a small set (msgType, vendor, zone):
     * the same bytes give the same String instance, with its hash already worked out, so the record
     * needs no new string, and lookups by it compare by reference. A fixed table, shared by all
     * threads: a slot holds the last name that hashed to it, so any input keeps it small.
     */
    public static String readName(DataInputView in) throws IOException {
        byte[] b = readBytes(in);
        if (b == null || b.length > MAX_NAME) {
            return b == null ? null : new String(b, StandardCharsets.UTF_8);
        }
        // Two slots per name: two frequent names that share one do not keep evicting each other.
        int slot = slot(b);
        int other = slot ^ 1;
        Name known = NAMES[slot];
        if (known != null && Arrays.equals(known.bytes, b)) {
            return known.string;
        }
        Name next = NAMES[other];
        if (next != null && Arrays.equals(next.bytes, b)) {
            return next.string;
        }
        String s = new String(b, StandardCharsets.UTF_8);
        s.hashCode();
        NAMES[known == null || next != null ? slot : other] = new Name(b, s);
        return s;
    }

    /**
     * A name's first slot from its length and three of its bytes: names differ there, and a
     * collision costs only a new string.
     */
    private static int slot(byte[] b) {
        int n = b.length;
        int h = n == 0 ? 0 : n * 0x01000193 ^ b[0] << 16 ^ b[n >> 1] << 8 ^ b[n - 1];
        return (h * 0x9E3779B9) >>> 22;
    }
}
