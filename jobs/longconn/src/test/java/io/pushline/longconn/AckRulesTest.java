package io.pushline.longconn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.udf.RulesException;
import org.junit.jupiter.api.Test;

class AckRulesTest {
    @Test
    void everyKeyIsOptional() {
        AckRules r = AckRules.parse("");
        assertThat(r.probeDelayMs).isEqualTo(10_000);
        assertThat(r.probeTries).isEqualTo(4);
        assertThat(r.stepMs).isEqualTo(10_000);
        assertThat(r.maxDelayMs).isEqualTo(120_000);
        assertThat(r.minAckVersion).isEqualTo("7.0.0");
    }

    @Test
    void durationsTakeFourUnits() {
        AckRules r =
                AckRules.parse(
                        "probeDelay: 250ms\nprobeTries: 0\nstep: 2m\nmaxDelay: 1h\n"
                                + "minAckVersion: \"7.10\"\n");
        assertThat(r.probeDelayMs).isEqualTo(250);
        assertThat(r.probeTries).isZero();
        assertThat(r.stepMs).isEqualTo(120_000);
        assertThat(r.maxDelayMs).isEqualTo(3_600_000);
        assertThat(r.minAckVersion).isEqualTo("7.10");
    }

    @Test
    void badValuesAreRejectedNamingTheKey() {
        assertRejected("probeDelay: 0s", "probeDelay");
        assertRejected("probeDelay: 10", "probeDelay");
        assertRejected("step: 5d", "step");
        assertRejected("maxDelay: -1s", "maxDelay");
        assertRejected("maxDelay: 99999999999999999999h", "maxDelay");
        assertRejected("probeTries: -1", "probeTries");
        assertRejected("probeTries: 2.5", "probeTries");
        assertRejected("probeTries: many", "probeTries");
        assertRejected("minAckVersion: 7.10", "minAckVersion"); // YAML's number 7.1
        assertRejected("minAckVersion: 7", "minAckVersion");
        assertRejected("minAckVersion: \"7.x\"", "minAckVersion");
        assertRejected("minAckVersion: \"1.2.3.4.5\"", "minAckVersion");
        assertRejected("probeDelays: 10s", "probeDelays");
        assertRejected("probeDelay: [10s]", "probeDelay");
        assertRejected("probeDelay:", "probeDelay");
    }

    @Test
    void anUnquotedVersionThatYamlReadsAsTextIsAccepted() {
        assertThat(AckRules.parse("minAckVersion: 7.0.0   # as in the contract").minAckVersion)
                .isEqualTo("7.0.0");
        assertThat(AckRules.parse("minAckVersion: '7.10'").minAckVersion).isEqualTo("7.10");
    }

    @Test
    void theLongestTrackingIsTheSumOfTheDelaysUpToTheGiveUp() {
        // 4 x 10 s, then 20, 30, ..., 120 s, then the 130 s that gives up
        assertThat(AckRules.defaults().longestTrackingMs())
                .isEqualTo(40_000 + (20 + 120) * 11 / 2 * 1_000 + 130_000);
        assertThat(new AckRules(50_000, 2, 1_000, 10_000, "7").longestTrackingMs())
                .isEqualTo(50_000);
        assertThat(new AckRules(1, 0, 1, Long.MAX_VALUE, "7").longestTrackingMs())
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aDocumentThatDoesNotParseIsRejected() {
        assertThatThrownBy(() -> AckRules.parse("probeDelay: [10s"))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining("do not parse");
        assertThatThrownBy(() -> AckRules.parse("- 1"))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining("(document)");
    }

    private static void assertRejected(String yaml, String key) {
        assertThatThrownBy(() -> AckRules.parse(yaml))
                .as(yaml)
                .isInstanceOf(RulesException.class)
                .hasMessageStartingWith(key + ":");
    }
}
