package io.pushline.dispatch.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.dispatch.GateDryRun;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Set;
import org.apache.flink.core.fs.Path;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.functions.KeyedStateReaderFunction;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;

/**
 * The dry run reads the committed savepoint of the upgrade trace's part A (the job's real state)
 * and decides a promo for the scripted devices twenty minutes after the cut, as the job would.
 */
class GateDryRunTest {
    static final long NOW = UpgradeTrace.CUT + 20 * UpgradeTrace.MIN;

    static Path savepoint() throws Exception {
        return new Path(
                Paths.get(GateDryRunTest.class.getResource("/savepoints/gate-v3/_metadata").toURI())
                        .getParent()
                        .toUri());
    }

    @Test
    void decidesFromTheCheckpointsStateAsTheJobWould() throws Exception {
        Path savepoint = savepoint();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        GateDryRun.Result r =
                GateDryRun.run(
                        env,
                        savepoint,
                        Set.of(
                                "u-s-cap",
                                "u-s-interval",
                                "u-s-window",
                                "u-s-dup",
                                "u-s-wait",
                                "u-nobody"),
                        "promo",
                        UpgradeTrace.RULES,
                        UpgradeRun.STATE_TTL,
                        NOW);
        assertThat(r.members).isEqualTo(6);
        assertThat(r.withDevice).isEqualTo(5);
        assertThat(r.devices).isEqualTo(5);
        // s-cap had five promos today, s-interval one 25 minutes ago (the rules' minimum is 30).
        assertThat(r.drops)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("daily_cap", 1L, "min_interval", 1L, "no_device", 1L));
        assertThat(r.pass).isEqualTo(3);
        assertThat(r.vendorCounts).containsOnlyKeys("fcm");
        assertThat(r.vendorCounts.get("fcm")).containsExactly(5, 3, 2);
    }

    @Test
    void aCheckpointWithoutTheOperatorIsNamedInTheError() throws Exception {
        Path savepoint = savepoint();
        SavepointReader reader =
                SavepointReader.read(
                        StreamExecutionEnvironment.getExecutionEnvironment(),
                        savepoint.toString(),
                        new EmbeddedRocksDBStateBackend());
        assertThatThrownBy(
                        () ->
                                GateDryRun.keyed(
                                        reader,
                                        savepoint,
                                        "not-an-operator",
                                        new KeyedStateReaderFunction<String, String>() {
                                            @Override
                                            public void readKey(
                                                    String key,
                                                    Context ctx,
                                                    Collector<String> out) {}
                                        }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        savepoint
                                + " holds no state of the dispatch job's operator"
                                + " 'not-an-operator': is it a checkpoint of the dispatch job?");
    }
}
