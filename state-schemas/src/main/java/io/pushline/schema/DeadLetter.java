package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;
import java.util.Set;

/**
 * A record of {@code push.dlq}: input that could not be used, with where it came from and why.
 *
 * <p>Bounded and safe to show: the raw text keeps its first {@link #MAX_RAW} characters ({@code
 * rawLength} then says how long it was) and the reason its first {@link #MAX_REASON}, so a dead
 * letter always fits the producer's record limit however large its input; string values are masked
 * in both except those of a few fields that find the record ({@link #SHOWN_KEYS}: msgId, deviceId,
 * type, ts, ...), so device tokens, uids and message texts never reach the dead-letter topic. The
 * position (partition and offset, or line) finds the original.
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

    /**
     * Fields whose string values stay readable in a dead letter: what finds the record and says
     * what it was, none of them a secret or a text. Every other string value is masked.
     */
    static final Set<String> SHOWN_KEYS =
            Set.of(
                    "ts",
                    "at",
                    "type",
                    "msgId",
                    "msgType",
                    "deviceId",
                    "vendor",
                    "tz",
                    "zone",
                    "priority",
                    "level",
                    "status",
                    "code",
                    "source",
                    "reason",
                    "inbox",
                    "segment",
                    "op",
                    "version",
                    // a metrics row's counts (the receipts job's too-late rows): no person in them
                    "minute",
                    "passed",
                    "dropped",
                    "sent",
                    "delivered",
                    "clicked",
                    "failed",
                    "tokenInvalid",
                    "inboxRead",
                    "latencyMax",
                    "lcAcked",
                    "lcRetries",
                    "lcFallbacks",
                    "lcGiveUps",
                    "compensationMax",
                    "attempt",
                    "delayMs");

    public DeadLetter() {}

    public static DeadLetter of(String source, String position, String reason, String raw) {
        DeadLetter d = new DeadLetter();
        d.source = source;
        d.position = position;
        d.reason = maskStrings(cut(reason, MAX_REASON));
        if (raw != null && raw.length() > MAX_RAW) {
            d.rawLength = raw.length();
        }
        d.raw = mask(cut(raw, MAX_RAW));
        return d;
    }

    /**
     * {@code text} with everything that may identify a person or hold a credential masked as {@code
     * ***}: every JSON string value except those of {@link #SHOWN_KEYS}, every bare token (an
     * unquoted value such as {@code {"token": X}}, a number that may be a uid or a phone number, or
     * any word of a text that is not JSON at all) except a number or literal directly after a shown
     * key and {@code true}, {@code false}, {@code null}. Keys, JSON punctuation and spaces stay, so
     * the shape of the record still shows. A string cut off at the end of the text is masked to the
     * end. A scan, not a regular expression: Java's regex engine recurses per repetition and
     * overflows on long values.
     */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_RAW + 16));
        String key = null;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '"') {
                int end = stringEnd(text, i);
                int next = skipSpaces(text, end);
                if (next < n && text.charAt(next) == ':') {
                    key = text.substring(i + 1, Math.max(i + 1, end - 1));
                    out.append(text, i, end);
                } else if (afterColon(text, i) && key != null && SHOWN_KEYS.contains(key)) {
                    out.append(text, i, end);
                } else {
                    out.append("\"***\"");
                }
                i = end;
            } else if (isPunctuation(c)) {
                out.append(c);
                i++;
            } else {
                int end = i;
                while (end < n && !isPunctuation(text.charAt(end)) && text.charAt(end) != '"') {
                    end++;
                }
                String token = text.substring(i, end);
                boolean literal =
                        token.equals("true") || token.equals("false") || token.equals("null");
                boolean shownNumber =
                        isNumber(token)
                                && afterColon(text, i)
                                && key != null
                                && SHOWN_KEYS.contains(key);
                out.append(literal || shownNumber ? token : "***");
                i = end;
            }
        }
        return out.toString();
    }

    /** JSON's structure and white space: what is kept outside strings. */
    private static boolean isPunctuation(char c) {
        return c == '{'
                || c == '}'
                || c == '['
                || c == ']'
                || c == ':'
                || c == ','
                || Character.isWhitespace(c);
    }

    private static boolean isNumber(String token) {
        if (token.isEmpty() || token.length() > 32) {
            return false;
        }
        for (int k = 0; k < token.length(); k++) {
            char c = token.charAt(k);
            if (!(c >= '0' && c <= '9')
                    && c != '-'
                    && c != '+'
                    && c != '.'
                    && c != 'e'
                    && c != 'E') {
                return false;
            }
        }
        return true;
    }

    /**
     * A reason with its JSON string values masked (the other words stay: a reason is the code's own
     * text, which quotes input only as JSON strings, and must stay readable).
     */
    static String maskStrings(String text) {
        if (text == null || text.indexOf('"') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_RAW + 16));
        int copied = 0;
        String key = null;
        int i = text.indexOf('"');
        while (i >= 0) {
            int end = stringEnd(text, i);
            int next = skipSpaces(text, end);
            if (next < text.length() && text.charAt(next) == ':') {
                key = text.substring(i + 1, Math.max(i + 1, end - 1));
            } else if (!(afterColon(text, i) && key != null && SHOWN_KEYS.contains(key))) {
                out.append(text, copied, i).append("\"***\"");
                copied = end;
            }
            i = end < text.length() ? text.indexOf('"', end) : -1;
        }
        return out.append(text, copied, text.length()).toString();
    }

    /** Just past the closing quote of the string opening at {@code start}, or the text's end. */
    private static int stringEnd(String text, int start) {
        int end = start + 1;
        while (end < text.length() && text.charAt(end) != '"') {
            end += text.charAt(end) == '\\' ? 2 : 1;
        }
        return Math.min(end + 1, text.length());
    }

    private static boolean afterColon(String text, int i) {
        int j = i - 1;
        while (j >= 0 && Character.isWhitespace(text.charAt(j))) {
            j--;
        }
        return j >= 0 && text.charAt(j) == ':';
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
