package io.pushline.longconn;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.common.RecordText;
import io.pushline.format.JsonFields;
import io.pushline.format.LongconnParser;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.schema.longconn.LongconnEvent;
import io.pushline.schema.longconn.SendBytes;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads the long-connection job's three topics in the source, so event time is known per partition:
 * first sends of {@code push.vendor.longconn} (their time is the record's, when dispatch wrote it;
 * retries, which carry an attempt number, are the job's own and come out empty), acks of {@code
 * longconn.acks} and presence of {@code longconn.presence}. Never fails: bad records come out as
 * dead letters.
 */
public class LongconnRecords implements KafkaRecordDeserializationSchema<ParsedRecord> {
    private static final long serialVersionUID = 1L;

    static final String SENDS = Vendor.LONGCONN.topic();

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<ParsedRecord> out) {
        ParsedRecord r =
                RecordText.parse(
                        record,
                        (text, position) -> parse(record, text, position),
                        dead -> ParsedRecord.of(dead).from(dead.source, dead.position));
        if (r != null) {
            out.collect(r);
        }
    }

    /** The record parsed, a dead letter, or an empty record for a retry (not a new send). */
    static ParsedRecord parse(ConsumerRecord<byte[], byte[]> record, String text, String position) {
        String topic = record.topic();
        long seq =
                ((long) (record.partition() & 0xFFFF) << 44) | (record.offset() & ((1L << 44) - 1));
        try {
            if (SENDS.equals(topic)) {
                return send(text, record.timestamp(), seq, topic, position);
            }
            String expected =
                    Topics.LONGCONN_ACKS.equals(topic) ? LongconnEvent.ACK : LongconnEvent.PRESENCE;
            LongconnParser.Result p = LongconnParser.parse(text, seq, expected);
            if (p.event() == null) {
                return dead(topic, position, p.reason(), text);
            }
            if (!expected.equals(p.event().type)) {
                return dead(
                        topic,
                        position,
                        "type '" + p.event().type + "' does not belong on " + topic,
                        text);
            }
            return ParsedRecord.of(p.event()).from(topic, position);
        } catch (RuntimeException | StackOverflowError e) {
            return dead(
                    topic, position, "unreadable record: " + e.getClass().getSimpleName(), text);
        }
    }

    private static ParsedRecord send(
            String text, long recordTs, long seq, String topic, String position) {
        JsonFields.Read read = JsonFields.object(text, LongconnParser.MAX_RECORD);
        if (read.node() == null) {
            return dead(topic, position, read.reason(), text);
        }
        JsonNode n = read.node();
        String bad;
        if ((bad = JsonFields.string(n, "msgId", LongconnParser.MAX_ID)) != null
                || (bad = JsonFields.string(n, "deviceId", LongconnParser.MAX_ID)) != null) {
            return dead(topic, position, bad, text);
        }
        JsonNode attempt = n.get("attempt");
        if (attempt != null && !attempt.isNull()) {
            if (!attempt.canConvertToInt()) {
                return dead(topic, position, "field 'attempt' must be an integer", text);
            }
            if (attempt.asInt() > 0) {
                // A retry the tracker made: not a new send, but its position still comes out
                // (empty: no time, dropped by SplitInput), or the split's watermark generator
                // would never see its partition read to the end.
                return new ParsedRecord().from(topic, position);
            }
        }
        SendRecord s;
        try {
            s = Json.WIRE.treeToValue(n, SendRecord.class);
        } catch (Exception e) {
            return dead(
                    topic, position, "not a send record: " + e.getClass().getSimpleName(), text);
        }
        LongconnEvent e = LongconnEvent.sent(recordTs, s.msgId, s.deviceId);
        e.seq = seq;
        e.send = SendBytes.of(s);
        return ParsedRecord.of(e).from(topic, position);
    }

    private static ParsedRecord dead(String topic, String position, String reason, String text) {
        return ParsedRecord.of(DeadLetter.of(topic, position, reason, text)).from(topic, position);
    }

    @Override
    public TypeInformation<ParsedRecord> getProducedType() {
        return TypeInformation.of(ParsedRecord.class);
    }
}
