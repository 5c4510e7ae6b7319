package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class OptionsParserTest {
    static final ConfigOption<Duration> IDLE =
            ConfigOptions.key("job.idle-advance")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription("test")
                    .withDeprecatedKeys("idle-advance");
    static final ConfigOption<Duration> LATE =
            ConfigOptions.key("job.max-out-of-orderness")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription("test");
    static final List<ConfigOption<?>> KNOWN = CommonOptions.with(List.of(IDLE, LATE));

    @Test
    void readsTypedOptionsWithDefaults() {
        Configuration c =
                OptionsParser.parse(
                        new String[] {
                            "--kafka.bootstrap-servers", "k:9092", "--job.idle-advance=0 s"
                        },
                        KNOWN);
        assertThat(c.get(CommonOptions.KAFKA_BOOTSTRAP)).isEqualTo("k:9092");
        assertThat(c.get(IDLE)).isEqualTo(Duration.ZERO);
        assertThat(c.get(LATE)).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void anUnknownKeyIsNamed() {
        assertThatThrownBy(
                        () ->
                                OptionsParser.parse(
                                        new String[] {"--kafka.bootstrap", "k:9092"}, KNOWN))
                .isInstanceOf(OptionsParser.InvalidOptionException.class)
                .hasMessageContaining("unknown option 'kafka.bootstrap'");
    }

    @Test
    void aBadValueIsNamedWithItsKey() {
        assertThatThrownBy(
                        () ->
                                OptionsParser.parse(
                                        new String[] {"--job.max-out-of-orderness", "soon"}, KNOWN))
                .hasMessageContaining("option 'job.max-out-of-orderness' has a bad value 'soon'");
        assertThatThrownBy(() -> OptionsParser.parse(new String[] {"--kafka.bounded"}, KNOWN))
                .hasMessageContaining("option 'kafka.bounded' has no value");
    }

    @Test
    void aMissingRequiredOptionIsNamed() {
        Configuration c = OptionsParser.parse(new String[0], KNOWN);
        assertThatThrownBy(() -> OptionsParser.require(c, CommonOptions.KAFKA_BOOTSTRAP))
                .hasMessage("option 'kafka.bootstrap-servers' is required");
    }

    @Test
    void startingOffsetsMustBeKnown() {
        assertThatThrownBy(
                        () ->
                                OptionsParser.parse(
                                        new String[] {"--kafka.starting-offsets", "yesterday"},
                                        KNOWN))
                .hasMessageContaining("option 'kafka.starting-offsets' has a bad value 'yesterday'")
                .hasMessageContaining("earliest, latest, committed");
        Configuration c =
                OptionsParser.parse(new String[] {"--kafka.starting-offsets", "Latest"}, KNOWN);
        assertThat(c.get(CommonOptions.KAFKA_STARTING_OFFSETS))
                .isEqualTo(CommonOptions.StartingOffsets.LATEST);
    }

    @Test
    void aDeprecatedKeyIsReadUnderItsNewName() {
        Configuration c = OptionsParser.parse(new String[] {"--idle-advance", "7 s"}, KNOWN);
        assertThat(c.get(IDLE)).isEqualTo(Duration.ofSeconds(7));
        assertThat(c.toMap()).containsKey("job.idle-advance").doesNotContainKey("idle-advance");
    }

    @Test
    void anotherJobsKeyIsUnknown() {
        assertThatThrownBy(
                        () ->
                                OptionsParser.parse(
                                        new String[] {"--other.max-out-of-orderness", "1 s"},
                                        KNOWN))
                .hasMessageContaining("unknown option 'other.max-out-of-orderness'");
    }

    @Test
    void deviceEventsSortBeforeRequestsOfTheSameMillisecond() {
        long event = ParsedRecordDeserializer.seq("device.events", 1, 900);
        long request = ParsedRecordDeserializer.seq("push.requests", 0, 3);
        assertThat(event).isLessThan(request);
        assertThat(ParsedRecordDeserializer.seq("push.requests", 0, 3))
                .isLessThan(ParsedRecordDeserializer.seq("push.requests", 0, 4));
    }

    /** TLS and SASL settings reach every Kafka client of a job, whatever the job. */
    @Test
    void kafkaClientPropertiesPassThroughUnderTheirPrefix() {
        Configuration c =
                OptionsParser.parse(
                        new String[] {
                            "--kafka.properties.security.protocol",
                            "SASL_SSL",
                            "--kafka.properties.sasl.mechanism=SCRAM-SHA-512",
                            "--kafka.bootstrap-servers",
                            "b:9093"
                        },
                        KNOWN);
        java.util.Properties p = KafkaIO.clientProperties(c);
        assertThat(p).hasSize(2);
        assertThat(p.getProperty("security.protocol")).isEqualTo("SASL_SSL");
        assertThat(p.getProperty("sasl.mechanism")).isEqualTo("SCRAM-SHA-512");
        assertThatThrownBy(
                        () -> OptionsParser.parse(new String[] {"--kafka.properties.", "x"}, KNOWN))
                .hasMessageContaining("unknown option 'kafka.properties.'");
    }

    @Test
    void hbaseClientPropertiesTravelWithTheQuorumToEveryConnection() {
        Configuration c =
                OptionsParser.parse(
                        new String[] {
                            "--hbase.zookeeper.quorum",
                            "zk1:2181,zk2:2181",
                            "--hbase.properties.hbase.security.authentication",
                            "kerberos",
                            "--hbase.properties.hbase.master.kerberos.principal=hbase/_HOST@EX;A=MPLE"
                        },
                        KNOWN);
        String address = HBaseTables.address(c);
        assertThat(address).startsWith("zk1:2181,zk2:2181;");
        org.apache.hadoop.conf.Configuration conf = HBaseTables.clientConf(address);
        assertThat(conf.get("hbase.zookeeper.quorum")).isEqualTo("zk1:2181,zk2:2181");
        assertThat(conf.get("hbase.security.authentication")).isEqualTo("kerberos");
        assertThat(conf.get("hbase.master.kerberos.principal")).isEqualTo("hbase/_HOST@EX;A=MPLE");
        // a bare quorum is still an address
        assertThat(HBaseTables.clientConf("zk:2181").get("hbase.zookeeper.quorum"))
                .isEqualTo("zk:2181");
        assertThat(HBaseTables.address(new Configuration())).isNull();
    }
}
