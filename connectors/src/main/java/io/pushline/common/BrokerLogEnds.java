package io.pushline.common;

import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.kafka.common.TopicPartition;

/**
 * Log ends as the broker has them: a reader is at the end of its partition when the broker's last
 * stable offset is at its position (the offset after the last record it emitted), or only
 * transaction markers lie between them; checked by a thread of the JVM ({@link LogEndChecker}), not
 * read from the consumer's lag metric, which stands still while a backpressured fetcher fetches
 * nothing, and which a consumer reports for a partition only once it has fetched it. A split that
 * has not emitted a record yet is asked about from where it started ({@link ReaderSplits}); a start
 * from the committed offsets is looked up as the job's consumer group has them.
 */
public final class BrokerLogEnds implements LogEnds {
    private static final long serialVersionUID = 1L;

    private final Properties kafka;

    /**
     * @param kafka bootstrap servers and client settings (TLS, SASL) of the cluster read, and the
     *     job's {@code group.id} when its readers start from the group's committed offsets
     */
    public BrokerLogEnds(Properties kafka) {
        this.kafka = new Properties();
        this.kafka.putAll(kafka);
    }

    /**
     * For a job's Kafka input read by the consumer group {@code groupId}: {@code
     * kafka.bootstrap-servers} and {@code kafka.properties.*}.
     */
    public static BrokerLogEnds of(Configuration conf, String groupId) {
        Properties p = KafkaIO.clientProperties(conf);
        p.setProperty(
                "bootstrap.servers", OptionsParser.require(conf, CommonOptions.KAFKA_BOOTSTRAP));
        p.setProperty("group.id", groupId);
        return new BrokerLogEnds(p);
    }

    @Override
    public long endVerifiedAt(String topic, int partition, long next) {
        return LogEndChecker.of(kafka).verifiedAt(new TopicPartition(topic, partition), next);
    }

    @Override
    public String describe() {
        return LogEndChecker.of(kafka).describe();
    }
}
