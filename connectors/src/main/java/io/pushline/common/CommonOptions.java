package io.pushline.common;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options every job accepts: where Kafka and HBase are and how the jobs talk to them. Each job
 * declares the rest in its own options class, under its own prefix; {@code ./pushline help options}
 * prints them all.
 */
public final class CommonOptions {
    private CommonOptions() {}

    /** Where a streaming source starts when it has no checkpoint. */
    public enum StartingOffsets {
        EARLIEST,
        LATEST,
        COMMITTED;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Options under this prefix are Kafka client properties, given to every consumer and producer
     * of a job with the prefix taken off (TLS, SASL, any client setting).
     */
    public static final String KAFKA_PROPERTIES_PREFIX = "kafka.properties.";

    /**
     * Options under this prefix are HBase client properties, given to every HBase connection of a
     * job or command with the prefix taken off (Kerberos or other authentication, timeouts).
     */
    public static final String HBASE_PROPERTIES_PREFIX = "hbase.properties.";

    /** The documentation row of {@link #HBASE_PROPERTIES_PREFIX}, as help options prints it. */
    public static final String HBASE_PROPERTIES_ROW =
            "| `hbase.properties.<name>` | (none) | Any HBase client property, given to every"
                    + " HBase connection of the job with the prefix taken off: authentication"
                    + " (`--hbase.properties.hbase.security.authentication kerberos`,"
                    + " `--hbase.properties.hbase.master.kerberos.principal hbase/_HOST@REALM`,"
                    + " `--hbase.properties.hbase.regionserver.kerberos.principal"
                    + " hbase/_HOST@REALM`), timeouts, retries. The Kerberos login itself is"
                    + " Flink's (`security.kerberos.login.keytab`, `.principal`). |\n";

    /** The documentation row of {@link #KAFKA_PROPERTIES_PREFIX}, as help options prints it. */
    public static final String KAFKA_PROPERTIES_ROW =
            "| `kafka.properties.<name>` | (none) | Any Kafka client property, given to every"
                    + " consumer and producer of the job with the prefix taken off: TLS and SASL"
                    + " (`--kafka.properties.security.protocol SASL_SSL`,"
                    + " `--kafka.properties.sasl.mechanism SCRAM-SHA-512`,"
                    + " `--kafka.properties.sasl.jaas.config '...'`,"
                    + " `--kafka.properties.ssl.truststore.location /etc/kafka/truststore.jks`)."
                    + " |\n";

    public static final ConfigOption<String> KAFKA_BOOTSTRAP =
            ConfigOptions.key("kafka.bootstrap-servers")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Kafka bootstrap servers, host:port[,host:port...].");

    public static final ConfigOption<StartingOffsets> KAFKA_STARTING_OFFSETS =
            ConfigOptions.key("kafka.starting-offsets")
                    .enumType(StartingOffsets.class)
                    .defaultValue(StartingOffsets.COMMITTED)
                    .withDescription(
                            "Where a streaming job starts without a checkpoint: earliest, latest,"
                                    + " or committed (its group's offsets, earliest where it has"
                                    + " none).");

    public static final ConfigOption<Boolean> KAFKA_BOUNDED =
            ConfigOptions.key("kafka.bounded")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Stop at the offsets that were latest when the job started: a"
                                    + " catch-up run that finishes (used by the demo).");

    public static final ConfigOption<Duration> KAFKA_TRANSACTION_TIMEOUT =
            ConfigOptions.key("kafka.transaction-timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "transaction.timeout.ms of the exactly-once producers; must exceed"
                                    + " the checkpoint interval and stay under the broker's"
                                    + " transaction.max.timeout.ms.");

    public static final ConfigOption<String> HBASE_ZK_QUORUM =
            ConfigOptions.key("hbase.zookeeper.quorum")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "ZooKeeper quorum of the HBase cluster, host:port[,host:port...]."
                                    + " The batch jobs need it; without it the dispatch job"
                                    + " neither mirrors the registry nor reads the segment store.");

    public static final ConfigOption<String> HBASE_NAMESPACE =
            ConfigOptions.key("hbase.namespace")
                    .stringType()
                    .defaultValue("pushline")
                    .withDescription("HBase namespace of Pushline's tables.");

    public static final ConfigOption<Boolean> HBASE_CREATE_TABLES =
            ConfigOptions.key("hbase.create-tables")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription("Create missing namespace and tables at start-up.");

    public static final ConfigOption<Integer> HBASE_DICTIONARY_CACHE =
            ConfigOptions.key("hbase.dictionary-cache")
                    .intType()
                    .defaultValue(100_000)
                    .withDescription(
                            "Entries each subtask caches of the uid dictionary (uid to id and"
                                    + " back).");

    public static List<ConfigOption<?>> all() {
        return List.of(
                KAFKA_BOOTSTRAP,
                KAFKA_STARTING_OFFSETS,
                KAFKA_BOUNDED,
                KAFKA_TRANSACTION_TIMEOUT,
                HBASE_ZK_QUORUM,
                HBASE_NAMESPACE,
                HBASE_CREATE_TABLES,
                HBASE_DICTIONARY_CACHE);
    }

    /** The common options followed by a job's own: what that job's command line accepts. */
    public static List<ConfigOption<?>> with(List<ConfigOption<?>> own) {
        List<ConfigOption<?>> all = new java.util.ArrayList<>(all());
        all.addAll(own);
        return List.copyOf(all);
    }
}
