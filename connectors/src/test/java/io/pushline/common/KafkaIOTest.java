package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class KafkaIOTest {
    @Test
    void theSinksCompressAndLingerByDefault() {
        Properties p = KafkaIO.sinkProducerProperties(new Configuration());
        assertThat(p.getProperty("compression.type")).isEqualTo("lz4");
        assertThat(p.getProperty("linger.ms")).isEqualTo("20");
        assertThat(p.getProperty("transaction.timeout.ms")).isNotNull();
    }

    @Test
    void theUsersKafkaPropertiesOverrideTheSinksDefaults() {
        Configuration conf =
                Configuration.fromMap(
                        Map.of(
                                CommonOptions.KAFKA_PROPERTIES_PREFIX + "compression.type",
                                "zstd",
                                CommonOptions.KAFKA_PROPERTIES_PREFIX + "linger.ms",
                                "5",
                                CommonOptions.KAFKA_PROPERTIES_PREFIX + "security.protocol",
                                "SASL_SSL"));
        Properties p = KafkaIO.sinkProducerProperties(conf);
        assertThat(p.getProperty("compression.type")).isEqualTo("zstd");
        assertThat(p.getProperty("linger.ms")).isEqualTo("5");
        assertThat(p.getProperty("security.protocol")).isEqualTo("SASL_SSL");
    }
}
