package io.pushline.common;

import io.pushline.schema.DeadLetter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A Kafka record's value as text. The topics carry UTF-8; bytes that are not UTF-8 are not quietly
 * replaced (a device id would change under its owner's feet) but reported, so the record becomes a
 * dead letter with the reason.
 */
public final class RecordText {
    private RecordText() {}

    /**
     * {@code parse} of the record's text and position ({@code partition-offset}), or, when its
     * value is not UTF-8, {@code bad} of the dead letter saying so.
     */
    public static <T> T parse(
            ConsumerRecord<byte[], byte[]> record,
            BiFunction<String, String, T> parse,
            Function<DeadLetter, T> bad) {
        String position = record.partition() + "-" + record.offset();
        try {
            return parse.apply(decode(record.value()), position);
        } catch (CharacterCodingException e) {
            return bad.apply(
                    DeadLetter.of(
                            record.topic(),
                            position,
                            problem(record.value()),
                            lenient(record.value())));
        }
    }

    /** The value decoded, or null for a null value (a tombstone). */
    public static String decode(byte[] value) throws CharacterCodingException {
        if (value == null) {
            return null;
        }
        CharsetDecoder d =
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer chars = d.decode(ByteBuffer.wrap(value));
        return chars.toString();
    }

    /** Why {@code value} is not UTF-8: where the first bad byte is. */
    public static String problem(byte[] value) {
        CharsetDecoder d =
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(value);
        CharBuffer out = CharBuffer.allocate(value.length);
        d.decode(in, out, true);
        return "not valid UTF-8 (byte " + in.position() + " of " + value.length + ")";
    }

    /** The value with bad bytes replaced, for a dead letter's raw text. */
    public static String lenient(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
    }
}
