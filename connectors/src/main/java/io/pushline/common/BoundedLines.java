package io.pushline.common;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;

/**
 * Lines of a text, each kept to at most {@code maxChars}: a file without line breaks (or with one
 * huge line) is read in bounded memory, the rest of a long line skipped. Line breaks are \n, \r\n
 * and \r, as for {@link java.io.BufferedReader#readLine}.
 */
public final class BoundedLines implements Closeable {
    private final Reader in;
    private final int maxChars;
    private final StringBuilder line = new StringBuilder();
    private final char[] buf = new char[1 << 16];
    private int pos;
    private int end;
    private long length;
    private boolean afterCr;

    public BoundedLines(Reader in, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be positive: " + maxChars);
        }
        this.in = in;
        this.maxChars = maxChars;
    }

    /** The next line without its break, cut to {@code maxChars}; null at the end of the text. */
    public String next() throws IOException {
        line.setLength(0);
        length = 0;
        boolean any = false;
        while (true) {
            if (pos == end) {
                end = in.read(buf, 0, buf.length);
                pos = 0;
                if (end <= 0) {
                    end = 0;
                    return any ? line.toString() : null;
                }
            }
            char c = buf[pos++];
            if (afterCr) {
                afterCr = false;
                if (c == '\n') {
                    continue;
                }
            }
            if (c == '\n' || c == '\r') {
                afterCr = c == '\r';
                return line.toString();
            }
            any = true;
            length++;
            if (line.length() < maxChars) {
                line.append(c);
            }
        }
    }

    /** Whether the line {@link #next} returned last was longer than {@code maxChars}. */
    public boolean wasCut() {
        return length > maxChars;
    }

    /** The full length of the line {@link #next} returned last, in characters. */
    public long length() {
        return length;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
