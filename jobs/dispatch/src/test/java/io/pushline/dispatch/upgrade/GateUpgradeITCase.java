package io.pushline.dispatch.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.local.LocalFlink;
import io.pushline.schema.Decision;
import io.pushline.schema.gate.GateState;
import io.pushline.schema.gate.GateStateDescriptors;
import io.pushline.testkit.Clusters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.functions.KeyedStateReaderFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upgrade as an operator does it: the dispatch job of the previous version ran part A of {@link
 * UpgradeTrace} and was stopped with a savepoint (committed under {@code savepoints/}, written by
 * {@link GateUpgradeFixture}); this version's job, whose gate state has gained a field, starts from
 * it and reads part B. Its decisions must be those of this version run over A and B without a stop,
 * and at the end every device's gate state must be the same in both.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class GateUpgradeITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    /** The savepoint of the version before GateState gained {@code lastPass}. */
    static final String PREVIOUS = "savepoints/gate-v3";

    @TempDir Path work;

    @Test
    void theUpgradedJobDecidesFromThePreviousVersionsCountersAsIfNeverStopped() throws Exception {
        UpgradeTrace trace = new UpgradeTrace();
        Configuration flink = LocalFlink.configuration(work.resolve("flink"));
        Path previous =
                Paths.get(GateUpgradeITCase.class.getClassLoader().getResource(PREVIOUS).toURI());
        long lastB = UpgradeTrace.lastTime(trace.partB);

        Path inputB = Files.createDirectories(work.resolve("upgraded"));
        JobClient upgraded = UpgradeRun.start(flink, inputB, previous.toUri().toString(), "up");
        UpgradeRun.write(inputB, "b.jsonl", trace.partB);
        UpgradeRun.awaitDecided("up", UpgradeRun.pushTimes(trace.partB), lastB);
        String upgradedEnd = UpgradeRun.stop(upgraded, true, work.resolve("sp-upgraded"));

        Path inputAll = Files.createDirectories(work.resolve("uninterrupted"));
        JobClient straight = UpgradeRun.start(flink, inputAll, null, "straight");
        List<String> all = new ArrayList<>(trace.partA);
        all.addAll(trace.partB);
        UpgradeRun.write(inputAll, "ab.jsonl", all);
        UpgradeRun.awaitDecided("straight", UpgradeRun.pushTimes(all), lastB);
        String straightEnd = UpgradeRun.stop(straight, true, work.resolve("sp-straight"));

        Map<String, String> upgradedDecisions = byMessage(UpgradeRun.decisions("up"));
        // The scripted devices: each part-B push decided by what part A left in the gate.
        Map<String, String> scripted = new TreeMap<>();
        UpgradeTrace.SCRIPTED.keySet().forEach(m -> scripted.put(m, upgradedDecisions.get(m)));
        assertThat(scripted).isEqualTo(new TreeMap<>(UpgradeTrace.SCRIPTED));

        List<String> after = lines(UpgradeRun.decisions("up"), Long.MIN_VALUE);
        List<String> straightAfter = lines(UpgradeRun.decisions("straight"), UpgradeTrace.CUT);
        assertThat(after).hasSizeGreaterThan(300).isEqualTo(straightAfter);
        assertThat(after)
                .anyMatch(l -> l.endsWith(" duplicate"))
                .anyMatch(l -> l.endsWith(" quiet_hours"))
                .anyMatch(l -> l.endsWith(" no_device"));

        // Every device's counters as if never stopped; the new field counts from the upgrade on.
        Map<String, String> upgradedState = gateState(upgradedEnd);
        Map<String, String> straightState = gateState(straightEnd);
        Map<String, Integer> passedInA = new TreeMap<>();
        for (Decision d : UpgradeRun.decisions("straight")) {
            if (d.ts < UpgradeTrace.CUT && d.isPass()) {
                passedInA.merge(d.deviceId, 1, Integer::sum);
            }
        }
        Map<String, String> expected = new TreeMap<>();
        straightState.forEach(
                (device, state) -> {
                    int passes = Integer.parseInt(state.substring(state.lastIndexOf('=') + 1));
                    expected.put(
                            device,
                            state.substring(0, state.lastIndexOf('=') + 1)
                                    + (passes - passedInA.getOrDefault(device, 0)));
                });
        assertThat(upgradedState).hasSizeGreaterThan(50).isEqualTo(expected);
        assertThat(passedInA).containsKeys("s-cap", "s-window", "s-interval", "s-dup");
    }

    /** msgId to "deviceId decision[ reason]", for the scripted ones (one device each). */
    private static Map<String, String> byMessage(List<Decision> decisions) {
        Map<String, String> out = new TreeMap<>();
        for (Decision d : decisions) {
            out.put(
                    d.msgId,
                    d.deviceId + " " + d.decision + (d.reason == null ? "" : " " + d.reason));
        }
        return out;
    }

    /** Decisions of pushes at or after {@code from}, one sorted line each. */
    private static List<String> lines(List<Decision> decisions, long from) {
        return decisions.stream()
                .filter(d -> d.ts >= from)
                .map(
                        d ->
                                String.join(
                                        " ",
                                        Long.toString(d.ts),
                                        d.msgId,
                                        String.valueOf(d.uid),
                                        String.valueOf(d.deviceId),
                                        String.valueOf(d.vendor),
                                        d.decision,
                                        String.valueOf(d.reason)))
                .sorted()
                .collect(Collectors.toList());
    }

    /** Every device's gate state in the savepoint at {@code path}, as text. */
    private static Map<String, String> gateState(String path) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        Map<String, String> out = new TreeMap<>();
        try (CloseableIterator<String> it =
                SavepointReader.read(env, path, new HashMapStateBackend())
                        .readKeyedState(OperatorIdentifier.forUid("gate"), new GateReader())
                        .executeAndCollect()) {
            it.forEachRemaining(
                    l -> out.put(l.substring(0, l.indexOf(' ')), l.substring(l.indexOf(' ') + 1)));
        }
        return out;
    }

    private static final class GateReader extends KeyedStateReaderFunction<String, String> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<GateState> device;

        @Override
        public void open(OpenContext ctx) {
            device =
                    getRuntimeContext().getState(GateStateDescriptors.device(UpgradeRun.STATE_TTL));
        }

        @Override
        public void readKey(String key, Context ctx, Collector<String> out) throws Exception {
            GateState s = device.value();
            if (s != null) {
                out.collect(key + " " + render(s));
            }
        }
    }

    static String render(GateState s) {
        return String.join(
                " ",
                "last=" + s.lastCountedPass,
                "day=" + s.day + "/" + s.dayCount,
                "windows="
                        + Arrays.toString(s.windowTypes)
                        + Arrays.toString(s.windowStarts)
                        + Arrays.toString(s.windowCounts),
                "seen=" + Arrays.toString(s.seen),
                "passes=" + s.passes);
    }
}
