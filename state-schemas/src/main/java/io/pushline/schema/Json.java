package io.pushline.schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.UncheckedIOException;

/** The one JSON configuration every topic uses. */
public final class Json {
    public static final ObjectMapper MAPPER =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /**
     * The reader of outside records (the wire topics, receipts): a key given twice is an error, not
     * "the last one wins", so an ambiguous record is refused rather than read one way.
     */
    public static final ObjectReader WIRE =
            MAPPER.reader().with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

    private Json() {}

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T read(String text, Class<T> type) {
        try {
            return MAPPER.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What is wrong with text that did not parse, without the text itself: the parser quotes the
     * token it stopped at ({@code Unrecognized token 'abc...'}), which may be a device token, so
     * every quoted piece longer than one character is masked, except a field's name.
     */
    public static String problem(Throwable e) {
        Throwable t = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
        String m =
                t instanceof JsonProcessingException
                        ? ((JsonProcessingException) t).getOriginalMessage()
                        : t.getMessage();
        if (m == null) {
            return t.getClass().getSimpleName();
        }
        StringBuilder out = new StringBuilder(m.length());
        int i = 0;
        while (i < m.length()) {
            int open = m.indexOf('\'', i);
            int close = open < 0 ? -1 : m.indexOf('\'', open + 1);
            if (close < 0) {
                out.append(m, i, m.length());
                break;
            }
            String quoted = m.substring(open + 1, close);
            boolean shown =
                    close - open <= 2
                            || quoted.equals("null")
                            || quoted.equals("true")
                            || quoted.equals("false")
                            || m.startsWith("field ", Math.max(0, open - 6));
            out.append(m, i, open + 1).append(shown ? m.substring(open + 1, close) : "***");
            out.append('\'');
            i = close + 1;
        }
        return out.toString();
    }
}
