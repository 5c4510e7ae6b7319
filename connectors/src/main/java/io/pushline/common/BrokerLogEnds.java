package io.pushline.common;

import java.util.Collection;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.kafka.common.TopicPartition;

/**
 * Log ends as the broker has them: a reader is at the end of its partition when the broker's last
 * stable offset is at its position (the offset after the last record it emitted), or only
 * transaction markers lie between them; checked by a thread of the JVM ({@link LogEndChecker}), not
 * read from the consumer's lag metric, which stands still while a backpressured fetcher fetches
 * nothing. A reader that has not seen a record yet does not know its position: for it, the
 * consumers' own lag ({@link ConsumerLag}) of every partition this JVM reads.
 */
public final class BrokerLogEnds implements LogEnds {
    private static final long serialVersionUID = 1L;

    private final Properties kafka;
    private final ConsumerLag lag = new ConsumerLag();

    /**
     * @param kafka bootstrap servers and client settings (TLS, SASL) of the cluster read
     */
    public BrokerLogEnds(Properties kafka) {
        this.kafka = new Properties();
        this.kafka.putAll(kafka);
    }

    /** For a job's Kafka input: {@code kafka.bootstrap-servers} and {@code kafka.properties.*}. */
    public static BrokerLogEnds of(Configuration conf) {
        Properties p = KafkaIO.clientProperties(conf);
        p.setProperty(
                "bootstrap.servers", OptionsParser.require(conf, CommonOptions.KAFKA_BOOTSTRAP));
        return new BrokerLogEnds(p);
    }

    @Override
    public long endVerifiedAt(String topic, int partition, long next) {
        return LogEndChecker.of(kafka).verifiedAt(new TopicPartition(topic, partition), next);
    }

    @Override
    public boolean allCaughtUp(Collection<String> topics) {
        return lag.allCaughtUp(topics);
    }

    @Override
    public String describe() {
        return LogEndChecker.of(kafka).describe() + "; consumers' lags " + lag.describe();
    }
}
