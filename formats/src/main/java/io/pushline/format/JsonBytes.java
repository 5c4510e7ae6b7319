package io.pushline.format;

import java.util.Arrays;

/**
 * A flat JSON object written straight into UTF-8 bytes, for the records every send and every
 * decision of the dispatch job becomes. It gives the bytes that Jackson's character writer (what
 * {@code Json.write} uses) followed by {@code String.getBytes(UTF_8)} gives: the same escapes
 * ({@code \"}, {@code \\}, {@code \b \t \n \f \r}, {@code \\u00XX} in upper case for the other
 * control characters, nothing else escaped), characters outside the BMP as their four UTF-8 bytes,
 * and a lone surrogate as {@code ?}. Going through a {@code StringWriter} (a synchronized buffer),
 * a {@code String} and its encoding took a quarter of the gate's thread during a campaign.
 *
 * <p>One writer per thread ({@link #get}); {@link #end} copies the object out, so the writer can
 * start the next one at once.
 */
final class JsonBytes {
    private static final byte[] HEX =
            "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** Per ASCII character: 0 as is, a letter for its short escape, -1 for {@code \\u00XX}. */
    private static final byte[] ESCAPES = new byte[128];

    static {
        for (int c = 0; c < 32; c++) {
            ESCAPES[c] = -1;
        }
        ESCAPES['"'] = '"';
        ESCAPES['\\'] = '\\';
        ESCAPES['\b'] = 'b';
        ESCAPES['\t'] = 't';
        ESCAPES['\f'] = 'f';
        ESCAPES['\n'] = 'n';
        ESCAPES['\r'] = 'r';
    }

    private static final ThreadLocal<JsonBytes> PER_THREAD =
            ThreadLocal.withInitial(JsonBytes::new);

    private byte[] buf = new byte[512];
    private int len;
    private boolean first;

    private JsonBytes() {}

    /** This thread's writer, at the start of a new object. */
    static JsonBytes get() {
        JsonBytes w = PER_THREAD.get();
        w.len = 0;
        w.startObject();
        return w;
    }

    /** {@code "name":"value"}, nothing when {@code value} is null. */
    JsonBytes stringIfPresent(String name, String value) {
        if (value != null) {
            string(name, value);
        }
        return this;
    }

    /** {@code "name":"value"}, or {@code "name":null}. */
    JsonBytes string(String name, String value) {
        name(name);
        if (value == null) {
            ascii("null");
        } else {
            quoted(value);
        }
        return this;
    }

    JsonBytes number(String name, long value) {
        name(name);
        if (value == Long.MIN_VALUE) {
            ascii(Long.toString(value));
            return this;
        }
        if (value < 0) {
            room(1);
            buf[len++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        room(digits);
        for (int i = len + digits - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        len += digits;
        return this;
    }

    /** {@code "name":{}: the fields up to {@link #endObject} go into it. */
    JsonBytes startObject(String name) {
        name(name);
        startObject();
        return this;
    }

    JsonBytes endObject() {
        room(1);
        buf[len++] = '}';
        first = false;
        return this;
    }

    /** Closes the object and returns its bytes (a copy: the writer is free again). */
    byte[] end() {
        endObject();
        return Arrays.copyOf(buf, len);
    }

    private void startObject() {
        room(1);
        buf[len++] = '{';
        first = true;
    }

    private void name(String name) {
        if (!first) {
            room(1);
            buf[len++] = ',';
        }
        first = false;
        quoted(name);
        room(1);
        buf[len++] = ':';
    }

    private void ascii(String s) {
        room(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
    }

    private void quoted(String s) {
        int n = s.length();
        // at most 6 bytes a character (an escape), 3 for any other; quotes
        room(n * 6 + 2);
        byte[] b = buf;
        int at = len;
        b[at++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                byte e = ESCAPES[c];
                if (e == 0) {
                    b[at++] = (byte) c;
                } else if (e > 0) {
                    b[at++] = '\\';
                    b[at++] = e;
                } else {
                    b[at++] = '\\';
                    b[at++] = 'u';
                    b[at++] = '0';
                    b[at++] = '0';
                    b[at++] = HEX[c >> 4];
                    b[at++] = HEX[c & 0xF];
                }
            } else if (c < 0x800) {
                b[at++] = (byte) (0xC0 | (c >> 6));
                b[at++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                char low = i + 1 < n ? s.charAt(i + 1) : 0;
                if (Character.isHighSurrogate(c) && Character.isLowSurrogate(low)) {
                    int cp = Character.toCodePoint(c, low);
                    b[at++] = (byte) (0xF0 | (cp >> 18));
                    b[at++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                    b[at++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                    b[at++] = (byte) (0x80 | (cp & 0x3F));
                    i++;
                } else {
                    b[at++] = '?'; // as String.getBytes(UTF_8) encodes a lone surrogate
                }
            } else {
                b[at++] = (byte) (0xE0 | (c >> 12));
                b[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                b[at++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        b[at++] = '"';
        len = at;
    }

    private void room(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
