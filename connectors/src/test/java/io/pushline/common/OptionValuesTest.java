package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptionValuesTest {
    @TempDir Path dir;

    @Test
    void anEnvironmentVariableAndAFileAreReadAnywhereInAValue() throws Exception {
        Path f = dir.resolve("pw");
        Files.writeString(f, "from-file\n");
        assertThat(OptionValues.resolve("k", "${env:PW}", Map.of("PW", "from-env")))
                .isEqualTo("from-env");
        assertThat(
                        OptionValues.resolve(
                                "k", "user=\"a\" password=\"${file:" + f + "}\";", Map.of()))
                .isEqualTo("user=\"a\" password=\"from-file\";");
        assertThat(OptionValues.resolve("k", "plain", Map.of())).isEqualTo("plain");
    }

    @Test
    void anEscapedOrForeignReferenceStaysAsItIs() {
        assertThat(OptionValues.resolve("k", "$${env:PW}", Map.of("PW", "x")))
                .isEqualTo("${env:PW}");
        // a Kafka config provider's reference is the client's business
        assertThat(OptionValues.resolve("k", "${vault:secret/kafka:pw}", Map.of()))
                .isEqualTo("${vault:secret/kafka:pw}");
    }

    @Test
    void aMissingSecretStopsStartUpNamingTheOptionNotTheValue() {
        assertThatThrownBy(
                        () -> OptionValues.resolve("kafka.properties.x", "${env:NOPE}", Map.of()))
                .hasMessage("option 'kafka.properties.x': environment variable NOPE is not set");
        Path missing = dir.resolve("missing");
        assertThatThrownBy(
                        () ->
                                OptionValues.resolve(
                                        "serve.app-token", "${file:" + missing + "}", Map.of()))
                .hasMessageContaining("option 'serve.app-token': cannot read file " + missing);
    }

    @Test
    void theParserReadsReferencesAndShowsABadSecretOnlyAsItsReference() throws Exception {
        ConfigOption<Integer> port = ConfigOptions.key("p").intType().defaultValue(1);
        ConfigOption<String> token = ConfigOptions.key("t").stringType().noDefaultValue();
        Path tokenFile = dir.resolve("token");
        Files.writeString(tokenFile, "tok-123");
        Path badPort = dir.resolve("port");
        Files.writeString(badPort, "hunter2");
        Configuration c =
                OptionsParser.parse(
                        new String[] {
                            "--t", "${file:" + tokenFile + "}",
                            "--kafka.properties.sasl.jaas.config", "pw=${file:" + tokenFile + "}"
                        },
                        List.of(port, token));
        assertThat(c.get(token)).isEqualTo("tok-123");
        assertThat(KafkaIO.clientProperties(c).getProperty("sasl.jaas.config"))
                .isEqualTo("pw=tok-123");
        assertThatThrownBy(
                        () ->
                                OptionsParser.parse(
                                        new String[] {"--p", "${file:" + badPort + "}"},
                                        List.of(port, token)))
                .hasMessageContaining("option 'p' has a bad value '${file:" + badPort + "}'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("hunter2"));
    }

    @Test
    void commandLineToolsReadReferencesInClientProperties() throws Exception {
        Path f = dir.resolve("pw");
        Files.writeString(f, "s3cret");
        assertThat(
                        KafkaIO.clientProperties(
                                        new String[] {
                                            "--kafka.properties.ssl.truststore.password",
                                            "${file:" + f + "}"
                                        })
                                .getProperty("ssl.truststore.password"))
                .isEqualTo("s3cret");
    }
}
