package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.audience.FolderAudiences;
import io.pushline.reminders.ReminderRules;
import io.pushline.reminders.UidIds;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dispatch topology as its stages compose it: every operator keeps the uid that the savepoints
 * of earlier versions hold its state under, with every capability on (campaigns, reminders, pacing
 * with feedback and reports) and with all of them off.
 */
class DispatchTopologyTest {
    @TempDir Path dir;

    /** The uids of the decision path, as the job had them before it was split into stages. */
    static final List<String> ALL_ON =
            List.of(
                    "audience-resolver",
                    "campaign-expander",
                    "device-registry",
                    "gate",
                    "pacer",
                    "pacing-feedback",
                    "pacing-reports",
                    "pacing-rules",
                    "reminder-meter",
                    "reminder-pacer",
                    "reminder-pulled-decisions",
                    "reminder-pushes",
                    "reminder-sends-apart",
                    "reminder-subscriber-ids",
                    "reminder-tasks",
                    "rules-check",
                    "scheduler",
                    "split-input",
                    "uid-index");

    static final List<String> ALL_OFF =
            List.of(
                    "device-registry",
                    "gate",
                    "rules-check",
                    "scheduler",
                    "split-input",
                    "uid-index");

    @Test
    void everyCapabilityOnKeepsTheUidsOfEveryStage() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DispatchJob.build(
                new DispatchInputs(input(env), text(env), text(env), text(env)),
                new DispatchSettings(
                        GateSettings.from(new Configuration()),
                        new AudienceSettings(FolderAudiences.factory(dir, null), 100, 0),
                        PacingSettings.of(Map.of("huawei", 10.0)),
                        new ReminderSettings(
                                ReminderRules.defaults(), "reminder", 2, ids(), null, 2_000),
                        128));
        assertThat(uids(env)).containsExactlyElementsOf(ALL_ON);
    }

    @Test
    void everyCapabilityOffLeavesTheDecisionPath() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DispatchJob.build(
                DispatchInputs.of(input(env), text(env)),
                DispatchSettings.gateOnly(GateSettings.from(new Configuration()), 128));
        assertThat(uids(env)).containsExactlyElementsOf(ALL_OFF);
    }

    private static DataStream<ParsedRecord> input(StreamExecutionEnvironment env) {
        return env.fromData(
                List.of(ParsedRecord.of(new PushRequest())),
                TypeInformation.of(ParsedRecord.class));
    }

    private static DataStream<String> text(StreamExecutionEnvironment env) {
        return env.fromData("x");
    }

    private static UidIds.Factory ids() {
        return () -> {
            throw new UnsupportedOperationException("only wired, never run");
        };
    }

    private static List<String> uids(StreamExecutionEnvironment env) {
        return env.getStreamGraph().getStreamNodes().stream()
                .map(StreamNode::getTransformationUID)
                .filter(Objects::nonNull)
                .collect(Collectors.toCollection(TreeSet::new))
                .stream()
                .toList();
    }
}
