package io.pushline.schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
        long n = Varints.readUnsigned(in);
        if (n == 0) {
            return null;
        }
        if (n - 1 > Integer.MAX_VALUE - 8) {
            throw new IOException("malformed string: length " + (n - 1));
        }
        byte[] b = new byte[(int) (n - 1)];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
