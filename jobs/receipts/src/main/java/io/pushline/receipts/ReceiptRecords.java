package io.pushline.receipts;

import io.pushline.common.RecordText;
import io.pushline.format.ReceiptParser;
import io.pushline.schema.receipts.ReceiptEvent;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Parses {@code push.decisions} and {@code push.receipts} records in the source, so event time is
 * known per partition; bad records come out as dead letters, never as failures.
 */
class ReceiptRecords implements KafkaRecordDeserializationSchema<ReceiptEvent> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<ReceiptEvent> out) {
        out.collect(
                RecordText.parse(
                        record,
                        (text, position) -> ReceiptParser.parse(record.topic(), text, position),
                        ReceiptEvent::of));
    }

    @Override
    public TypeInformation<ReceiptEvent> getProducedType() {
        return TypeInformation.of(ReceiptEvent.class);
    }
}
