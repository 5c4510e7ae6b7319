package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BoundedLinesTest {
    @Test
    void splitsOnEveryKindOfBreakLikeReadLine() throws IOException {
        assertThat(lines("a\nb\r\nc\rd", 10)).containsExactly("a", "b", "c", "d");
        assertThat(lines("a\n\nb\n", 10)).containsExactly("a", "", "b");
        assertThat(lines("", 10)).isEmpty();
        assertThat(lines("\r\n", 10)).containsExactly("");
    }

    @Test
    void aLongLineIsCutAndTheNextOneReadWhole() throws IOException {
        try (BoundedLines in = new BoundedLines(new StringReader("x".repeat(100) + "\nok"), 8)) {
            assertThat(in.next()).isEqualTo("xxxxxxxx");
            assertThat(in.wasCut()).isTrue();
            assertThat(in.length()).isEqualTo(100);
            assertThat(in.next()).isEqualTo("ok");
            assertThat(in.wasCut()).isFalse();
            assertThat(in.next()).isNull();
        }
    }

    /** A 200 MB text without a break is read in bounded memory (a reader that makes it up). */
    @Test
    void aHugeTextWithoutBreaksNeverComesWhole() throws IOException {
        long total = 200L << 20;
        Reader endless =
                new Reader() {
                    long left = total;

                    @Override
                    public int read(char[] cbuf, int off, int len) {
                        if (left == 0) {
                            return -1;
                        }
                        int n = (int) Math.min(len, left);
                        java.util.Arrays.fill(cbuf, off, off + n, 'u');
                        left -= n;
                        return n;
                    }

                    @Override
                    public void close() {}
                };
        try (BoundedLines in = new BoundedLines(endless, 1024)) {
            assertThat(in.next()).hasSize(1024);
            assertThat(in.length()).isEqualTo(total);
            assertThat(in.next()).isNull();
        }
    }

    private static List<String> lines(String text, int max) throws IOException {
        List<String> out = new ArrayList<>();
        try (BoundedLines in = new BoundedLines(new StringReader(text), max)) {
            for (String l = in.next(); l != null; l = in.next()) {
                out.add(l);
            }
        }
        return out;
    }
}
