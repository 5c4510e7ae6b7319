package io.pushline.cli;

import io.pushline.common.CommittedRecords;
import io.pushline.common.KafkaIO;
import io.pushline.common.UsageException;
import io.pushline.local.LocalStack;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code ./pushline produce TOPIC [FILE]} and {@code ./pushline consume TOPIC [--follow]}: JSON
 * lines in and out of a topic of the local stack (or {@code --bootstrap host:port}), so that a job
 * can be tried without other tools.
 */
final class TopicCommand {
    private TopicCommand() {}

    static int produce(String[] args) throws Exception {
        if (args.length == 0) {
            throw new UsageException(
                    "usage: ./pushline produce TOPIC [FILE] [--bootstrap host:port]"
                            + " [--kafka.properties.NAME VALUE ...]");
        }
        String topic = args[0];
        String bootstrap = bootstrap(args);
        Path file = args.length > 1 && !args[1].startsWith("--") ? Paths.get(args[1]) : null;
        Properties p = KafkaIO.clientProperties(args);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        long n = 0;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p);
                BufferedReader in =
                        file == null
                                ? new BufferedReader(
                                        new InputStreamReader(System.in, StandardCharsets.UTF_8))
                                : Files.newBufferedReader(file)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    producer.send(new ProducerRecord<>(topic, line)).get();
                    n++;
                }
            }
        }
        System.err.printf("produced %,d records to %s%n", n, topic);
        return 0;
    }

    static int consume(String[] args) throws Exception {
        if (args.length == 0) {
            throw new UsageException(
                    "usage: ./pushline consume TOPIC [--follow] [--bootstrap host:port]"
                            + " [--kafka.properties.NAME VALUE ...]");
        }
        String topic = args[0];
        boolean follow = List.of(args).contains("--follow");
        Properties p = KafkaIO.clientProperties(args);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(args));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        if (!follow) {
            // a read to the end: close() would wait out the broker's hold on the last fetch
            p.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, KafkaIO.TO_END_FETCH_WAIT_MS);
        }
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = CommittedRecords.partitions(c, topic);
            c.assign(parts);
            c.seekToBeginning(parts);
            var end = c.endOffsets(parts);
            while (follow || parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
                    System.out.println(r.value());
                }
                System.out.flush();
            }
        }
        return 0;
    }

    private static String bootstrap(String[] args) throws Exception {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--bootstrap")) {
                return args[i + 1];
            }
        }
        for (String a : RunCommand.localEnvDefaults(LocalStack.defaultDir())) {
            if (!a.startsWith("--")) {
                return a;
            }
        }
        throw new UsageException(
                "no Kafka to talk to: start ./pushline local up, or pass --bootstrap host:port");
    }
}
