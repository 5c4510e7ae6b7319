package io.pushline.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.OptionsParser;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** Which stages the job's options turn on, and what each stage's settings refuse. */
class DispatchSettingsTest {
    private static Configuration options(String... args) {
        return OptionsParser.parse(args, DispatchOptions.accepted());
    }

    @Test
    void withoutHBaseTheGateAndPacingRunAndNoCampaignsOrReminders() {
        DispatchSettings s = DispatchSettings.from(options("--dispatch.reminders.enabled", "true"));
        assertThat(s.gate()).isNotNull();
        assertThat(s.pacing()).isNotNull();
        assertThat(s.campaigns()).isFalse();
        // reminders fire through the campaigns' expansion: nothing to run them on
        assertThat(s.reminders()).isNull();
        assertThat(s.maxParallelism()).isEqualTo(DispatchOptions.MAX_PARALLELISM.defaultValue());
    }

    @Test
    void withHBaseCampaignsRunAndRemindersWhenAskedFor() {
        DispatchSettings s =
                DispatchSettings.from(
                        options(
                                "--hbase.zookeeper.quorum",
                                "zk:2181",
                                "--dispatch.reminders.enabled",
                                "true",
                                "--dispatch.pacing.enabled",
                                "false"));
        assertThat(s.campaigns()).isTrue();
        assertThat(s.reminders()).isNotNull();
        assertThat(s.pacing()).isNull();
        assertThat(
                        DispatchSettings.from(options("--hbase.zookeeper.quorum", "zk:2181"))
                                .reminders())
                .isNull();
    }

    @Test
    void aBadValueOfAnyStageStopsStartUpNamingItsKey() {
        assertThatThrownBy(
                        () -> DispatchSettings.from(options("--dispatch.pacing.rates", "huawei:x")))
                .hasMessageContaining("dispatch.pacing.rates");
        assertThatThrownBy(
                        () ->
                                DispatchSettings.from(
                                        options(
                                                "--hbase.zookeeper.quorum",
                                                "zk:2181",
                                                "--dispatch.reminders.enabled",
                                                "true",
                                                "--dispatch.reminders.rate",
                                                "0")))
                .hasMessageContaining("dispatch.reminders.rate");
    }

    @Test
    void remindersWithoutCampaignsAreRefused() {
        DispatchSettings gateOnly =
                DispatchSettings.gateOnly(GateSettings.from(new Configuration()), 128);
        assertThatThrownBy(
                        () ->
                                new DispatchSettings(
                                        gateOnly.gate(),
                                        AudienceSettings.none(),
                                        null,
                                        new ReminderSettings(
                                                io.pushline.reminders.ReminderRules.defaults(),
                                                "reminder",
                                                2,
                                                null,
                                                null,
                                                2_000),
                                        128))
                .hasMessageContaining("reminders need campaigns");
    }
}
