package io.pushline.serve;

import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The server's Kafka producers: text keys and values, acknowledged by all replicas, idempotent. */
final class KafkaClients {
    private KafkaClients() {}

    static KafkaProducer<String, String> producer(Properties kafka, int lingerMs) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("linger.ms", Integer.toString(lingerMs));
        return new KafkaProducer<>(p);
    }
}
