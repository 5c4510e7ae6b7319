package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A record of {@code push.dlq}: input that could not be used, with where it came from and why.
 *
 * <p>Bounded and safe to show: the raw text keeps its first {@link #MAX_RAW} characters ({@code
 * rawLength} then says how long it was) and the reason its first {@link #MAX_REASON}, so a dead
 * letter always fits the producer's record limit however large its input; the values of {@code
 * token}, {@code title} and {@code body} fields are masked in both, so device tokens and message
 * texts never reach the dead-letter topic. The position (partition and offset, or line) finds the
 * original.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"source", "position", "reason", "raw", "rawLength"})
public class DeadLetter {
    /** Topic name, or {@code trace} for a replayed file. */
    public String source;

    /** Where in the source: {@code partition-offset} on Kafka, the line number in a trace. */
    public String position;

    public String reason;
    public String raw;

    /** The raw text's length when it was cut to {@link #MAX_RAW} characters, else null. */
    public Integer rawLength;

    public static final int MAX_RAW = 4_096;
    public static final int MAX_REASON = 1_000;

    private static final String[] SECRET_KEYS = {"\"token\"", "\"title\"", "\"body\""};

    public DeadLetter() {}

    public static DeadLetter of(String source, String position, String reason, String raw) {
        DeadLetter d = new DeadLetter();
        d.source = source;
        d.position = position;
        d.reason = mask(cut(reason, MAX_REASON));
        if (raw != null && raw.length() > MAX_RAW) {
            d.rawLength = raw.length();
        }
        d.raw = mask(cut(raw, MAX_RAW));
        return d;
    }

    /**
     * {@code text} with the string value of every token, title and body field replaced by "***" (a
     * value cut off at the end of the text is masked to the end). A scan, not a regular expression:
     * Java's regex engine recurses per repetition and overflows on long values.
     */
    public static String mask(String text) {
        if (text == null || text.indexOf('"') < 0) {
            return text;
        }
        StringBuilder out = null;
        int copied = 0;
        for (int i = text.indexOf('"'); i >= 0 && i < text.length(); ) {
            int valueStart = secretValueAt(text, i);
            if (valueStart < 0) {
                i = text.indexOf('"', i + 1);
                continue;
            }
            int end = valueStart + 1;
            while (end < text.length() && text.charAt(end) != '"') {
                end += text.charAt(end) == '\\' ? 2 : 1;
            }
            end = Math.min(end + 1, text.length());
            if (out == null) {
                out = new StringBuilder(text.length());
            }
            out.append(text, copied, valueStart).append("\"***\"");
            copied = end;
            i = text.indexOf('"', end);
        }
        return out == null ? text : out.append(text, copied, text.length()).toString();
    }

    /** Where the string value of a secret key starting at {@code i} starts, else -1. */
    private static int secretValueAt(String text, int i) {
        for (String key : SECRET_KEYS) {
            if (text.startsWith(key, i)) {
                int j = skipSpaces(text, i + key.length());
                if (j < text.length() && text.charAt(j) == ':') {
                    j = skipSpaces(text, j + 1);
                    if (j < text.length() && text.charAt(j) == '"') {
                        return j;
                    }
                }
            }
        }
        return -1;
    }

    private static int skipSpaces(String text, int j) {
        while (j < text.length() && Character.isWhitespace(text.charAt(j))) {
            j++;
        }
        return j;
    }

    /** The first {@code max} characters, not splitting a surrogate pair. */
    private static String cut(String s, int max) {
        if (s == null || s.length() <= max) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max;
        return s.substring(0, end);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DeadLetter)) {
            return false;
        }
        DeadLetter d = (DeadLetter) o;
        return Objects.equals(source, d.source)
                && Objects.equals(position, d.position)
                && Objects.equals(reason, d.reason)
                && Objects.equals(raw, d.raw);
    }

    @Override
    public int hashCode() {
        return Objects.hash(source, position, reason);
    }

    @Override
    public String toString() {
        return Json.write(this);
    }
}
