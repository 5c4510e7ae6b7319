package io.pushline.serve;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's dry run runs in a child JVM with the server's Kafka and HBase security settings,
 * each given by reference to the child's environment: none shows in its command line.
 */
class DryRunSecretsTest {
    static final String JAAS =
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\""
                    + " password=\"SECRET-pw\";";

    @Test
    void theChildGetsTheSecuritySettingsOutsideItsCommandLine(@TempDir Path home) throws Exception {
        Configuration conf = new Configuration();
        conf.setString(CommonOptions.KAFKA_PROPERTIES_PREFIX + "security.protocol", "SASL_SSL");
        conf.setString(CommonOptions.KAFKA_PROPERTIES_PREFIX + "sasl.jaas.config", JAAS);
        conf.setString(
                CommonOptions.HBASE_PROPERTIES_PREFIX + "hbase.security.authentication",
                "kerberos");
        Map<String, String> env = ServeMain.dryRunSecrets(conf);
        assertThat(env.values()).contains(JAAS, "SASL_SSL", "kerberos");
        // a child that prints what it was given: the setting reaches it through its environment
        String settingOfJaas =
                env.entrySet().stream()
                        .filter(e -> e.getValue().equals(JAAS))
                        .findFirst()
                        .orElseThrow()
                        .getKey();
        List<String> options = ServeMain.dryRunOptions(conf, home);
        assertThat(String.join(" ", options))
                .doesNotContain("SECRET-pw")
                .contains("--kafka.properties.sasl.jaas.config ${env:" + settingOfJaas + "}")
                .contains("--hbase.properties.hbase.security.authentication ${env:");
        // a child that says whether it was given the setting: through its environment
        ProcessDryRunner runner =
                new ProcessDryRunner(
                        List.of(
                                "sh",
                                "-c",
                                "case \"$"
                                        + settingOfJaas
                                        + "\" in *password=*) echo '{\"given\":true}';; *) echo"
                                        + " '{\"given\":false}';; esac",
                                "dry-run"),
                        options,
                        env);
        assertThat(runner.run("a AND b", "news")).isEqualTo("{\"given\":true}");
        assertThat(String.join(" ", runner.commandLine("a AND b", "news")))
                .doesNotContain("SECRET-pw");
    }
}
