package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.OptionsParser;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class AudienceSettingsTest {
    private static Configuration options(String... args) {
        return OptionsParser.parse(args, DispatchOptions.accepted());
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
                                "--dispatch.audience.chunk-size",
                                "100"));
        assertThat(s.audiences).isNotNull();
        assertThat(s.chunkSize).isEqualTo(100);
    }

    @Test
    void anOutOfRangeValueStopsStartUpNamingTheOption() {
        assertThatThrownBy(
                        () -> AudienceSettings.from(options("--dispatch.audience.chunk-size", "0")))
                .hasMessage("option 'dispatch.audience.chunk-size' must be at least 1, got 0");
        assertThatThrownBy(
                        () ->
                                AudienceSettings.from(
                                        options("--dispatch.audience.max-ids-per-second", "-5")))
                .hasMessageContaining("'dispatch.audience.max-ids-per-second'");
    }

    @Test
    void theKeysFromBeforeThePrefixStillWork() {
        AudienceSettings s = AudienceSettings.from(options("--audience.chunk-size", "64"));
        assertThat(s.chunkSize).isEqualTo(64);
    }

    @Test
    void theDispatchJobRefusesOtherJobsKeys() {
        assertThatThrownBy(() -> options("--receipts.decision-wait", "1 min"))
                .hasMessageContaining("unknown option 'receipts.decision-wait'");
    }
}
