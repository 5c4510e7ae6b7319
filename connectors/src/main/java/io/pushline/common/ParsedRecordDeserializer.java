package io.pushline.common;

import io.pushline.format.InboxParser;
import io.pushline.format.ReminderParser;
import io.pushline.format.WireParser;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.Topics;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Parses {@code device.events} and {@code push.requests} records in the source, so event time is
 * known per partition; never fails: bad records come out as dead letters.
 */
public class ParsedRecordDeserializer implements KafkaRecordDeserializationSchema<ParsedRecord> {
    private static final long serialVersionUID = 1L;

    private transient WireParser parser;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<ParsedRecord> out) {
        if (parser == null) {
            parser = new WireParser(true);
        }
        out.collect(
                RecordText.parse(
                        record,
                        (text, position) -> parse(record, text, position),
                        dead -> ParsedRecord.of(dead).from(dead.source, dead.position)));
    }

    private ParsedRecord parse(
            ConsumerRecord<byte[], byte[]> record, String text, String position) {
        long seq = seq(record.topic(), record.partition(), record.offset());
        if (record.topic().startsWith(REMINDER_PREFIX)) {
            ReminderParser.Result r = ReminderParser.parse(text, seq);
            if (r.event() == null) {
                return ParsedRecord.of(DeadLetter.of(record.topic(), position, r.reason(), text))
                        .from(record.topic(), position);
            }
            return ParsedRecord.of(r.event()).from(record.topic(), position);
        }
        if (record.topic().equals(Topics.INBOX_EVENTS)) {
            InboxParser.Result r = InboxParser.parse(text);
            if (r.op() == null) {
                return ParsedRecord.of(DeadLetter.of(record.topic(), position, r.reason(), text))
                        .from(record.topic(), position);
            }
            return ParsedRecord.of(r.op()).from(record.topic(), position);
        }
        return parser.parse(text, record.topic(), position, seq);
    }

    private static final String REMINDER_PREFIX = "reminder.";

    /**
     * Orders records of equal event time: device events before requests (a bind and a push in the
     * same millisecond mean "bind, then push"), then by partition and offset.
     */
    static long seq(String topic, int partition, long offset) {
        long rank = Topics.DEVICE_EVENTS.equals(topic) ? 0 : 1;
        return (rank << 60) | ((long) (partition & 0xFFFF) << 44) | (offset & ((1L << 44) - 1));
    }

    @Override
    public TypeInformation<ParsedRecord> getProducedType() {
        return TypeInformation.of(ParsedRecord.class);
    }
}
