package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.dispatch.gate.ExampleRules;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.Topics;
import io.pushline.serve.app.DryRunReport;
import io.pushline.testkit.KafkaTopics;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The console's dry run takes the rules the dispatch job has (the newest valid update on
 * push.rules, not a later one the job refused), reads them with the job's Kafka settings, and says
 * which rules it used.
 */
class DryRunSettingsITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @Test
    void theNewestValidRulesWithWhereTheyCameFrom() throws Exception {
        String bootstrap = STACK.get().kafkaBootstrap();
        STACK.get().kafka().recreateTopics(List.of(Topics.RULES), 1);
        Configuration conf = new Configuration();
        conf.set(CommonOptions.KAFKA_BOOTSTRAP, bootstrap);
        DryRunReport.Rules none = DryRunReport.rulesInForce(conf);
        assertThat(none.text()).isEqualTo("{}");
        assertThat(none.source()).contains("defaults");

        String valid = ExampleRules.YAML;
        KafkaTopics.produce(
                bootstrap,
                Topics.RULES,
                List.of(
                        KafkaTopics.kv("rules", valid),
                        KafkaTopics.kv("rules", "quietHours: [this is not a rule")));
        DryRunReport.Rules used = DryRunReport.rulesInForce(conf);
        // the job kept the valid update when the later one did not parse: so does the dry run
        assertThat(used.text()).isEqualTo(valid);
        assertThat(used.source()).startsWith("push.rules").contains("0-0");

        // the job's security settings are used: a client setting the broker refuses is an error
        // the answer names, not a quiet fall-back
        // (SASL without its login settings: the client refuses at once)
        conf.setString(
                CommonOptions.KAFKA_PROPERTIES_PREFIX + "security.protocol", "SASL_PLAINTEXT");
        DryRunReport.Rules unread = DryRunReport.rulesInForce(conf);
        assertThat(unread.source()).contains("push.rules could not be read");
    }
}
