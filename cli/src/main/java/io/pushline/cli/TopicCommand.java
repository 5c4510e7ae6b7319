package io.pushline.cli;

import io.pushline.common.CommittedRecords;
import io.pushline.common.JobOptionArgs;
import io.pushline.common.KafkaIO;
import io.pushline.common.OptionsParser;
import io.pushline.common.UsageException;
import io.pushline.local.LocalStack;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./pushline produce TOPIC [FILE]} and {@code ./pushline consume TOPIC [--follow]}: JSON
 * lines in and out of a topic of the local stack (or {@code --bootstrap host:port}), so that a job
 * can be tried without other tools.
 */
final class TopicCommand {
    private TopicCommand() {}

    /** What both commands share: the broker and the client's security properties. */
    abstract static class Client extends JobOptionArgs.Command {
        @Option(
                names = "--bootstrap",
                paramLabel = "HOST:PORT",
                description = "Default: the local stack's (.pushline/local.env).")
        String bootstrap;

        /** The --kafka.properties.NAME VALUE options (TLS, SASL) as client properties. */
        Properties properties() throws Exception {
            Properties p =
                    KafkaIO.clientProperties(
                            OptionsParser.parse(jobOptions().toArray(new String[0]), List.of()));
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
            return p;
        }

        private String bootstrap() throws Exception {
            if (bootstrap != null) {
                return bootstrap;
            }
            for (String a : RunCommand.localEnvDefaults(LocalStack.defaultDir())) {
                if (!a.startsWith("--")) {
                    return a;
                }
            }
            throw new UsageException(
                    "no Kafka to talk to: start ./pushline local up, or pass --bootstrap"
                            + " host:port");
        }
    }

    @Command(
            name = "produce",
            mixinStandardHelpOptions = true,
            preprocessor = JobOptionArgs.class,
            description = {
                "Send JSON lines (stdin or FILE) to a topic, one record per line.",
                "--kafka.properties.NAME VALUE sets a client property (TLS, SASL)."
            })
    static final class Produce extends Client implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "TOPIC")
        String topic;

        @Parameters(index = "1", arity = "0..1", paramLabel = "FILE")
        Path file;

        @Override
        public Integer call() throws Exception {
            Properties p = properties();
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            long n = 0;
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(p);
                    BufferedReader in =
                            file == null
                                    ? new BufferedReader(
                                            new InputStreamReader(
                                                    System.in, StandardCharsets.UTF_8))
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
    }

    @Command(
            name = "consume",
            mixinStandardHelpOptions = true,
            preprocessor = JobOptionArgs.class,
            description = {
                "Print a topic's committed records (read_committed), from the beginning.",
                "--kafka.properties.NAME VALUE sets a client property (TLS, SASL)."
            })
    static final class Consume extends Client implements Callable<Integer> {
        @Parameters(paramLabel = "TOPIC")
        String topic;

        @Option(names = "--follow", description = "Wait for more records until Ctrl-C.")
        boolean follow;

        @Override
        public Integer call() throws Exception {
            Properties p = properties();
            p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            p.put(
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                    StringDeserializer.class.getName());
            if (!follow) {
                // a read to the end: close() would wait out the broker's hold on the last fetch
                p.putIfAbsent(
                        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, KafkaIO.TO_END_FETCH_WAIT_MS);
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
    }
}
