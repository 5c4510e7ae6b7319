package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.OptionsParser;
import io.pushline.common.PushlineOptions;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class AudienceSettingsTest {
    private static Configuration options(String... args) {
        return OptionsParser.parse(args, PushlineOptions.all());
    }

    @Test
    void withoutAQuorumThereIsNoStoreAndTheDefaultsHold() {
        AudienceSettings s = AudienceSettings.from(options());
        assertThat(s.audiences).isNull();
        assertThat(s.chunkSize).isEqualTo(5_000);
        assertThat(s.maxIdsPerSecond).isZero();
    }

    @Test
    void withAQuorumCampaignsReadTheStore() {
        AudienceSettings s =
                AudienceSettings.from(
                        options(
                                "--hbase.zookeeper.quorum",
                                "zk:2181",
                                "--audience.chunk-size",
                                "100"));
        assertThat(s.audiences).isNotNull();
        assertThat(s.chunkSize).isEqualTo(100);
    }

    @Test
    void anOutOfRangeValueStopsStartUpNamingTheOption() {
        assertThatThrownBy(() -> AudienceSettings.from(options("--audience.chunk-size", "0")))
                .hasMessage("option 'audience.chunk-size' must be at least 1, got 0");
        assertThatThrownBy(
                        () -> AudienceSettings.from(options("--audience.max-ids-per-second", "-5")))
                .hasMessageContaining("'audience.max-ids-per-second'");
    }
}
