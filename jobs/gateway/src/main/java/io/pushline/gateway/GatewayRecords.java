package io.pushline.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.common.RecordText;
import io.pushline.format.JsonFields;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.gateway.GatewayInput;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads a vendor topic's sends in the source. Never fails: a record that is not a send (not JSON,
 * too big, no msgId, deviceId or token, another vendor's) is a dead letter with the reason, its
 * text masked so no token reaches {@code push.dlq}.
 */
public class GatewayRecords implements KafkaRecordDeserializationSchema<GatewayInput> {
    private static final long serialVersionUID = 1L;

    /** A send is a few hundred bytes; anything far bigger is not one. */
    static final int MAX_RECORD = 64 * 1024;

    static final int MAX_FIELD = 4_096;

    private final String vendor;

    public GatewayRecords(String vendor) {
        this.vendor = vendor;
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<GatewayInput> out) {
        GatewayInput in =
                RecordText.parse(
                        record,
                        (text, position) -> parse(record.topic(), text, position),
                        GatewayInput::of);
        if (in != null) {
            out.collect(in);
        }
    }

    GatewayInput parse(String topic, String text, String position) {
        if (text == null) {
            return null; // a tombstone: nothing to send
        }
        try {
            JsonFields.Read read = JsonFields.object(text, MAX_RECORD);
            if (read.node() == null) {
                return dead(topic, position, read.reason(), text);
            }
            JsonNode n = read.node();
            String bad;
            if ((bad = JsonFields.string(n, "msgId", MAX_FIELD)) != null
                    || (bad = JsonFields.string(n, "deviceId", MAX_FIELD)) != null
                    || (bad = JsonFields.string(n, "token", MAX_FIELD)) != null) {
                return dead(topic, position, bad, text);
            }
            SendRecord s = Json.WIRE.treeToValue(n, SendRecord.class);
            if (s.vendor != null && !vendor.equals(s.vendor)) {
                return dead(
                        topic,
                        position,
                        "a send for '" + JsonFields.clip(s.vendor) + "' on " + topic,
                        text);
            }
            s.vendor = vendor;
            return GatewayInput.of(s);
        } catch (Exception | StackOverflowError e) {
            return dead(
                    topic, position, "not a send record: " + e.getClass().getSimpleName(), text);
        }
    }

    private static GatewayInput dead(String topic, String position, String reason, String text) {
        return GatewayInput.of(DeadLetter.of(topic, position, reason, text));
    }

    @Override
    public TypeInformation<GatewayInput> getProducedType() {
        return TypeInformation.of(GatewayInput.class);
    }
}
