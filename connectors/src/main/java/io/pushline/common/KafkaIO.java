package io.pushline.common;

import io.pushline.format.DecisionJson;
import io.pushline.format.SendRecordJson;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.segments.MemberRow;
import io.pushline.schema.segments.SegmentChange;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.DefaultKafkaDatasetIdentifier;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacet;
import org.apache.flink.connector.kafka.lineage.KafkaDatasetFacetProvider;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.TransactionNamingStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

/** Kafka sources and sinks of the jobs, built from {@link CommonOptions} and a job's own ids. */
public final class KafkaIO {
    private KafkaIO() {}

    /** {@code device.events} and {@code push.requests}, parsed; reads committed data only. */
    public static KafkaSource<ParsedRecord> dispatchInput(Configuration conf, String groupId) {
        return dispatchInput(conf, groupId, List.of(Topics.DEVICE_EVENTS, Topics.PUSH_REQUESTS));
    }

    /**
     * {@code topics} (device events, requests, reminder events), parsed; reads committed data only.
     */
    public static KafkaSource<ParsedRecord> dispatchInput(
            Configuration conf, String groupId, List<String> topics) {
        return parsedInput(conf, groupId, topics, new ParsedRecordDeserializer());
    }

    /** {@code topics} parsed by {@code deserializer}; reads committed data only. */
    public static KafkaSource<ParsedRecord> parsedInput(
            Configuration conf,
            String groupId,
            List<String> topics,
            KafkaRecordDeserializationSchema<ParsedRecord> deserializer) {
        return input(conf, groupId, topics, deserializer);
    }

    /** {@code topics} read by {@code deserializer}; reads committed data only. */
    public static <T> KafkaSource<T> input(
            Configuration conf,
            String groupId,
            List<String> topics,
            KafkaRecordDeserializationSchema<T> deserializer) {
        KafkaSourceBuilder<T> b =
                KafkaSource.<T>builder()
                        .setBootstrapServers(
                                OptionsParser.require(conf, CommonOptions.KAFKA_BOOTSTRAP))
                        .setProperties(clientProperties(conf))
                        .setTopics(topics)
                        .setGroupId(groupId)
                        .setStartingOffsets(startingOffsets(conf))
                        .setDeserializer(deserializer)
                        .setProperty("isolation.level", "read_committed")
                        .setProperty("commit.offsets.on.checkpoint", "true");
        if (conf.get(CommonOptions.KAFKA_BOUNDED)) {
            b.setBounded(OffsetsInitializer.latest());
        }
        return b.build();
    }

    /**
     * A topic's records as text (rules documents, vendor feedback), read committed from what the
     * group {@code groupId} has not seen.
     */
    public static KafkaSource<String> textInput(Configuration conf, String topic, String groupId) {
        KafkaSourceBuilder<String> b =
                KafkaSource.<String>builder()
                        .setBootstrapServers(
                                OptionsParser.require(conf, CommonOptions.KAFKA_BOOTSTRAP))
                        .setProperties(clientProperties(conf))
                        .setTopics(topic)
                        .setGroupId(groupId)
                        .setStartingOffsets(startingOffsets(conf))
                        .setDeserializer(new ValueRecords<>(Types.STRING, (value, r) -> value))
                        .setProperty("isolation.level", "read_committed");
        if (conf.get(CommonOptions.KAFKA_BOUNDED)) {
            b.setBounded(OffsetsInitializer.latest());
        }
        return b.build();
    }

    /**
     * A nightly job's bounded read of {@code topic}: from the first record at or after {@code
     * fromMs} (record timestamp) in each partition to the offsets that are latest when the job
     * starts, read committed, as (position, text) with position {@code topic-partition@offset}.
     */
    public static KafkaSource<Tuple2<String, String>> linesSince(
            Configuration conf, String topic, String groupId, long fromMs) {
        return KafkaSource.<Tuple2<String, String>>builder()
                .setBootstrapServers(OptionsParser.require(conf, CommonOptions.KAFKA_BOOTSTRAP))
                .setProperties(clientProperties(conf))
                .setTopics(topic)
                .setGroupId(groupId)
                .setStartingOffsets(OffsetsInitializer.timestamp(fromMs))
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer(
                        new ValueRecords<>(
                                Types.TUPLE(Types.STRING, Types.STRING),
                                (value, r) ->
                                        Tuple2.of(
                                                r.topic() + "-" + r.partition() + "@" + r.offset(),
                                                value)))
                .setProperty("isolation.level", "read_committed")
                .build();
    }

    /**
     * The client properties given as {@code kafka.properties.<name>} options (TLS, SASL, any client
     * setting), for every consumer and producer of a job: e.g. {@code
     * --kafka.properties.security.protocol SASL_SSL}.
     */
    public static Properties clientProperties(Configuration conf) {
        Properties p = new Properties();
        conf.toMap()
                .forEach(
                        (k, v) -> {
                            if (k.startsWith(CommonOptions.KAFKA_PROPERTIES_PREFIX)) {
                                p.setProperty(
                                        k.substring(CommonOptions.KAFKA_PROPERTIES_PREFIX.length()),
                                        v);
                            }
                        });
        return p;
    }

    /**
     * The {@code --kafka.properties.NAME VALUE} arguments as client properties (TLS, SASL), as the
     * jobs take them, with {@code ${env:..}} and {@code ${file:..}} values read ({@link
     * OptionValues}).
     */
    public static Properties clientProperties(String[] args) {
        Properties p = new Properties();
        String prefix = "--" + CommonOptions.KAFKA_PROPERTIES_PREFIX;
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith(prefix) && args[i].length() > prefix.length()) {
                int eq = args[i].indexOf('=');
                if (eq > 0) {
                    String name = args[i].substring(prefix.length(), eq);
                    p.put(
                            name,
                            OptionValues.resolve(
                                    args[i].substring(2, eq), args[i].substring(eq + 1)));
                } else if (i + 1 < args.length) {
                    String name = args[i].substring(prefix.length());
                    p.put(name, OptionValues.resolve(args[i].substring(2), args[++i]));
                } else {
                    throw new UsageException("option '" + args[i].substring(2) + "' has no value");
                }
            }
        }
        return p;
    }

    /** Consumer settings for tools and tests that read what jobs committed, as raw bytes. */
    public static Properties committedReader(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("isolation.level", "read_committed");
        p.put("key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        p.put("value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer");
        return p;
    }

    /** {@code fetch.max.wait.ms} of a consumer that reads to the end and closes (see below). */
    public static final String TO_END_FETCH_WAIT_MS = "20";

    /**
     * As {@link #committedReader}, for a consumer that reads up to the current end and closes: a
     * consumer asks for the next records before they are wanted, the broker holds that request up
     * to {@code fetch.max.wait.ms} (500 ms by default) when nothing new comes, and {@code close()}
     * waits for its answer. Records that are there come back at once whatever the setting.
     */
    public static Properties toEndReader(String bootstrap) {
        Properties p = committedReader(bootstrap);
        p.put("fetch.max.wait.ms", TO_END_FETCH_WAIT_MS);
        return p;
    }

    public static OffsetsInitializer startingOffsets(Configuration conf) {
        switch (conf.get(CommonOptions.KAFKA_STARTING_OFFSETS)) {
            case EARLIEST:
                return OffsetsInitializer.earliest();
            case LATEST:
                return OffsetsInitializer.latest();
            default:
                return OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
        }
    }

    /**
     * An exactly-once sink writing each record as JSON to {@code topic}, keyed by {@code keyOf}
     * (null for no key).
     *
     * @param transactionalIdPrefix the job's prefix, unique per job on one Kafka cluster
     * @param name distinguishes the sink's transactional ids from the job's other sinks
     */
    public static <T> KafkaSink<T> jsonSink(
            Configuration conf,
            String transactionalIdPrefix,
            String name,
            String topic,
            SerializableFunction<T, String> keyOf) {
        return jsonSink(conf, transactionalIdPrefix, name, Pattern.quote(topic), t -> topic, keyOf);
    }

    /**
     * An exactly-once sink writing each record as JSON to the topic {@code topicOf} names, one of
     * those {@code topics} (a regular expression) matches, keyed by {@code keyOf}.
     *
     * <p>Transactional ids are pooled: a sink reuses the ids of its committed transactions instead
     * of opening a new one per checkpoint. With Flink's default every checkpoint of every sink
     * subtask initialised a fresh id (a round trip to the transaction coordinator and a write to
     * its log), three times a second at the 300 ms interval, and the broker keeps each id it ever
     * saw for {@code transactional.id.expiration.ms} (7 days): millions of ids a week per job. On
     * restart, transactions left open are found by listing the producers of {@code topics}, which
     * is why the topics must be known (the ACLs this needs: docs/security.md).
     */
    public static <T> KafkaSink<T> jsonSink(
            Configuration conf,
            String transactionalIdPrefix,
            String name,
            String topics,
            SerializableFunction<T, String> topicOf,
            SerializableFunction<T, String> keyOf) {
        Properties producer = sinkProducerProperties(conf);
        return KafkaSink.<T>builder()
                .setBootstrapServers(OptionsParser.require(conf, CommonOptions.KAFKA_BOOTSTRAP))
                .setKafkaProducerConfig(producer)
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(transactionalIdPrefix + "-" + name)
                .setTransactionNamingStrategy(TransactionNamingStrategy.POOLING)
                .setRecordSerializer(new JsonRecords<>(topics, topicOf, keyOf))
                .build();
    }

    /**
     * The exactly-once sinks' producer settings: the job's {@code kafka.properties.*}, the
     * transaction timeout, and lz4 with a 20 ms linger unless those properties say otherwise.
     */
    static Properties sinkProducerProperties(Configuration conf) {
        Properties producer = clientProperties(conf);
        producer.setProperty(
                "transaction.timeout.ms",
                String.valueOf(conf.get(CommonOptions.KAFKA_TRANSACTION_TIMEOUT).toMillis()));
        producer.putIfAbsent("compression.type", "lz4");
        producer.putIfAbsent("linger.ms", "20");
        return producer;
    }

    /**
     * An at-least-once JSON sink: for batch jobs (no checkpoints to commit transactions on), and
     * for notices that must be seen at once and whose repeat is harmless.
     */
    public static <T> KafkaSink<T> jsonAtLeastOnceSink(
            Configuration conf,
            SerializableFunction<T, String> topicOf,
            SerializableFunction<T, String> keyOf) {
        return KafkaSink.<T>builder()
                .setBootstrapServers(OptionsParser.require(conf, CommonOptions.KAFKA_BOOTSTRAP))
                .setKafkaProducerConfig(clientProperties(conf))
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .setRecordSerializer(new JsonRecords<>(null, topicOf, keyOf))
                .build();
    }

    /**
     * {@code segment.changes} from the group's committed offsets (earliest where it has none) up to
     * {@code stop}, parsed; bad records come out as rows holding a dead letter.
     */
    public static KafkaSource<MemberRow> segmentChanges(
            Configuration conf, String topic, String groupId, Map<TopicPartition, Long> stop) {
        return KafkaSource.<MemberRow>builder()
                .setBootstrapServers(OptionsParser.require(conf, CommonOptions.KAFKA_BOOTSTRAP))
                .setProperties(clientProperties(conf))
                .setTopics(topic)
                .setGroupId(groupId)
                .setStartingOffsets(
                        OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setBounded(OffsetsInitializer.offsets(stop))
                .setDeserializer(
                        new ValueRecords<>(
                                TypeInformation.of(MemberRow.class),
                                (value, r) ->
                                        SegmentChange.parse(
                                                value, r.topic(), r.partition(), r.offset())))
                .setProperty("isolation.level", "read_committed")
                .build();
    }

    /** Parses a record's value (as text) with its position. */
    interface ValueParser<T> extends Serializable {
        T parse(String value, ConsumerRecord<byte[], byte[]> record);
    }

    /** Record values through a parser; empty and null values (tombstones) are skipped. */
    static final class ValueRecords<T> implements KafkaRecordDeserializationSchema<T> {
        private static final long serialVersionUID = 1L;
        private final TypeInformation<T> type;
        private final ValueParser<T> parser;

        ValueRecords(TypeInformation<T> type, ValueParser<T> parser) {
            this.type = type;
            this.parser = parser;
        }

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<T> out) {
            if (record.value() != null && record.value().length > 0) {
                out.collect(
                        parser.parse(new String(record.value(), StandardCharsets.UTF_8), record));
            }
        }

        @Override
        public TypeInformation<T> getProducedType() {
            return type;
        }
    }

    static final class JsonRecords<T>
            implements KafkaRecordSerializationSchema<T>, KafkaDatasetFacetProvider {
        private static final long serialVersionUID = 1L;
        private final String topics; // a regular expression; null: not known (at least once)
        private final SerializableFunction<T, String> topicOf;
        private final SerializableFunction<T, String> keyOf;

        JsonRecords(
                String topics,
                SerializableFunction<T, String> topicOf,
                SerializableFunction<T, String> keyOf) {
            this.topics = topics;
            this.topicOf = topicOf;
            this.keyOf = keyOf;
        }

        /** The topics written, for the sink to find transactions left open on a restart. */
        @Override
        public Optional<KafkaDatasetFacet> getKafkaDatasetFacet() {
            if (topics == null) {
                return Optional.empty();
            }
            return Optional.of(
                    new DefaultKafkaDatasetFacet(
                            DefaultKafkaDatasetIdentifier.ofPattern(Pattern.compile(topics))));
        }

        @Override
        public ProducerRecord<byte[], byte[]> serialize(
                T element, KafkaSinkContext context, Long timestamp) {
            String key = keyOf.apply(element);
            // The record time is the producer's clock, not the event time: brokers reject
            // records too far from their clock, and a client's odd ts must not fail the job.
            return new ProducerRecord<>(
                    topicOf.apply(element),
                    null,
                    null,
                    key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                    json(element));
        }

        /**
         * The hand-written JSON of the two records every (push, device) becomes; databind's else.
         */
        private static byte[] json(Object element) {
            if (element instanceof SendRecord) {
                return SendRecordJson.bytes((SendRecord) element);
            }
            if (element instanceof Decision) {
                return DecisionJson.bytes((Decision) element);
            }
            return Json.write(element).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Creates the topics that do not exist yet, each with {@code partitions} and one replica. */
    public static void createTopics(Admin admin, Collection<String> topics, int partitions)
            throws Exception {
        List<NewTopic> missing =
                topics.stream().map(t -> new NewTopic(t, partitions, (short) 1)).toList();
        for (KafkaFuture<Void> created : admin.createTopics(missing).values().values()) {
            try {
                created.get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        }
    }
}
