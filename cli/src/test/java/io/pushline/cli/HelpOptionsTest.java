package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.recall.RecallOptions;
import io.pushline.receipts.ReceiptsOptions;
import io.pushline.schedule.ScheduleOptions;
import io.pushline.segments.SegmentsOptions;
import io.pushline.sendtime.SendTimeOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;

class HelpOptionsTest {
    private static final Map<String, List<ConfigOption<?>>> OWN =
            Map.of(
                    "dispatch.", DispatchOptions.own(),
                    "receipts.", ReceiptsOptions.own(),
                    "segments.", SegmentsOptions.own(),
                    "sendtime.", SendTimeOptions.own(),
                    "recall.", RecallOptions.own(),
                    "schedule.", ScheduleOptions.feedOwn());

    @Test
    void eachJobsOwnKeysAreUnderItsPrefixAndBelongToNoOtherJob() {
        Map<String, String> owner = new HashMap<>();
        OWN.forEach(
                (prefix, options) -> {
                    for (ConfigOption<?> o : options) {
                        assertThat(o.key()).startsWith(prefix);
                        assertThat(owner.put(o.key(), prefix)).as(o.key()).isNull();
                    }
                });
        for (ConfigOption<?> o : CommonOptions.all()) {
            assertThat(o.key()).matches("(kafka|hbase)\\..*");
        }
    }

    @Test
    void helpOptionsListsEveryKeyAJobAccepts() {
        String text = Help.options();
        for (List<ConfigOption<?>> accepted :
                List.of(
                        DispatchOptions.accepted(),
                        ReceiptsOptions.accepted(),
                        io.pushline.longconn.LongconnOptions.accepted(),
                        SegmentsOptions.accepted(),
                        SendTimeOptions.accepted(),
                        RecallOptions.accepted(),
                        ScheduleOptions.nightly(),
                        ScheduleOptions.feed())) {
            for (ConfigOption<?> o : accepted) {
                assertThat(text).contains("| `" + o.key() + "` |");
            }
        }
        assertThat(text).contains("(Was `gate.rules`, still accepted.)");
        assertThat(text).contains("| `sendtime.predictor` | `rules` |");
    }

    @Test
    void docsOptionsIsWhatHelpPrintsAndTheDispatchReadmeHasItsTable() throws Exception {
        Path root = K8sManifestsTest.k8sDir().getParent();
        String text = Help.options();
        String docs = Files.readString(root.resolve("docs/options.md"));
        assertThat(docs.substring(docs.indexOf("### "))).isEqualTo(text);
        String dispatch = text.substring(text.indexOf("### Dispatch job"));
        dispatch = dispatch.substring(dispatch.indexOf("| option"), dispatch.indexOf("\n### "));
        assertThat(Files.readString(root.resolve("jobs/dispatch/README.md"))).contains(dispatch);
    }
}
