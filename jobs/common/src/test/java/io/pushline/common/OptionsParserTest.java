package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class OptionsParserTest {
    @Test
    void readsTypedOptionsWithDefaults() {
        Configuration c =
                OptionsParser.parse(
                        new String[] {
                            "--kafka.bootstrap-servers", "k:9092", "--dispatch.idle-advance=0 s"
                        },
                        PushlineOptions.all());
        assertThat(c.get(PushlineOptions.KAFKA_BOOTSTRAP)).isEqualTo("k:9092");
        assertThat(c.get(PushlineOptions.IDLE_ADVANCE)).isEqualTo(Duration.ZERO);
        assertThat(c.get(PushlineOptions.MAX_OUT_OF_ORDERNESS)).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void anUnknownKeyIsNamed() {
        assertThatThrownBy(
                        () ->
                                OptionsParser.parse(
                                        new String[] {"--kafka.bootstrap", "k:9092"},
                                        PushlineOptions.all()))
                .isInstanceOf(OptionsParser.InvalidOptionException.class)
                .hasMessageContaining("unknown option 'kafka.bootstrap'");
    }

    @Test
    void aBadValueIsNamedWithItsKey() {
        assertThatThrownBy(
                        () ->
                                OptionsParser.parse(
                                        new String[] {"--dispatch.max-out-of-orderness", "soon"},
                                        PushlineOptions.all()))
                .hasMessageContaining(
                        "option 'dispatch.max-out-of-orderness' has a bad value 'soon'");
        assertThatThrownBy(
                        () ->
                                OptionsParser.parse(
                                        new String[] {"--kafka.bounded"}, PushlineOptions.all()))
                .hasMessageContaining("option 'kafka.bounded' has no value");
    }

    @Test
    void aMissingRequiredOptionIsNamed() {
        Configuration c = OptionsParser.parse(new String[0], PushlineOptions.all());
        assertThatThrownBy(() -> OptionsParser.require(c, PushlineOptions.KAFKA_BOOTSTRAP))
                .hasMessage("option 'kafka.bootstrap-servers' is required");
    }

    @Test
    void startingOffsetsMustBeKnown() {
        Configuration c =
                OptionsParser.parse(
                        new String[] {"--kafka.starting-offsets", "yesterday"},
                        PushlineOptions.all());
        assertThatThrownBy(() -> KafkaIO.startingOffsets(c))
                .hasMessageContaining(
                        "'kafka.starting-offsets' must be earliest, latest or committed");
    }

    @Test
    void deviceEventsSortBeforeRequestsOfTheSameMillisecond() {
        long event = ParsedRecordDeserializer.seq("device.events", 1, 900);
        long request = ParsedRecordDeserializer.seq("push.requests", 0, 3);
        assertThat(event).isLessThan(request);
        assertThat(ParsedRecordDeserializer.seq("push.requests", 0, 3))
                .isLessThan(ParsedRecordDeserializer.seq("push.requests", 0, 4));
    }
}
