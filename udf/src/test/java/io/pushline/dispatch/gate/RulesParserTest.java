package io.pushline.dispatch.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.dispatch.pacing.PacingConfig;
import io.pushline.udf.RulesException;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RulesParserTest {
    @Test
    void readsTheContractsExample() {
        Rules r = RulesParser.parse(GateOperatorTest.CONTRACT_RULES);
        assertThat(r.timezone).isEqualTo(ZoneId.of("Asia/Shanghai"));
        assertThat(r.quietHours.start()).isEqualTo(LocalTime.of(23, 0));
        assertThat(r.quietHours.end()).isEqualTo(LocalTime.of(7, 0));
        assertThat(r.quietHours.exemptLevel()).isEqualTo(3);
        assertThat(r.minInterval.period()).isEqualTo(Duration.ofMinutes(30).toMillis());
        assertThat(r.dailyCap.limit()).isEqualTo(5);
        assertThat(r.dedupeWindow).isEqualTo(Duration.ofHours(24).toMillis());
        assertThat(r.level(null, "news")).isEqualTo(2);
        assertThat(r.level(null, "unlisted")).isEqualTo(1);
        assertThat(r.level(7, "news")).isEqualTo(7);
        assertThat(r.cap("news").limit()).isEqualTo(2);
        assertThat(r.cap("live_start")).isNull();
        assertThat(r.cap("unlisted")).isNull();
        assertThat(r.whitelistMsgTypes).containsExactly("security_notice");
        assertThat(r.whitelistDevices).containsExactly("d-000042");
    }

    @Test
    void unquotedTimesAreTimesNotSexagesimalNumbers() {
        Rules r = RulesParser.parse("quietHours: {start: 23:00, end: 07:00}");
        assertThat(r.quietHours.start()).isEqualTo(LocalTime.of(23, 0));
    }

    @Test
    void theJsonFormIsTheSameDocument() {
        Rules r =
                RulesParser.parse(
                        "{\"dailyCap\":{\"limit\":3,\"exemptLevel\":null},\"msgTypes\":{\"news\":{\"cap\":{\"limit\":1,\"period\":\"2h\"}}}}");
        assertThat(r.dailyCap.limit()).isEqualTo(3);
        assertThat(r.dailyCap.exemptLevel()).isNull();
        assertThat(r.cap("news").period()).isEqualTo(Duration.ofHours(2).toMillis());
    }

    @Test
    void missingSectionsAreOffAndZoneDefaultsToUtc() {
        Rules r = RulesParser.parse("");
        assertThat(r.timezone).isEqualTo(ZoneOffset.UTC);
        assertThat(r.quietHours).isNull();
        assertThat(r.dedupeWindow).isNull();
        assertThat(r.level(null, "x")).isEqualTo(1);
        assertThat(r.lookBack()).isEqualTo(Duration.ofDays(2));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "quietHour: {start: \"23:00\", end: \"07:00\"}|quietHour: unknown key",
                "quietHours: {start: \"23:00\", end: \"07:00\", exempt: 3}|quietHours.exempt: unknown key",
                "quietHours: {start: \"25:00\", end: \"07:00\"}|quietHours.start: bad time '25:00'",
                "quietHours: {start: \"7am\", end: \"07:00\"}|quietHours.start: bad time '7am'",
                "quietHours: {start: \"23:00\"}|quietHours.end: missing",
                "minInterval: {period: 30}|minInterval.period: bad duration '30'",
                "minInterval: {period: 30min}|minInterval.period: bad duration '30min'",
                "minInterval: {period: -5m}|minInterval.period: bad duration '-5m'",
                "dedupe: {window: 1w}|dedupe.window: bad duration '1w'",
                "dailyCap: {limit: five}|dailyCap.limit: expected an integer, got 'five'",
                "dailyCap: {limit: -1}|dailyCap.limit: must not be negative",
                "timezone: Mars/Olympus|timezone: unknown zone 'Mars/Olympus'",
                "msgTypes: {news: {level: 2, cap: {limit: 2, periods: 1h}}}|msgTypes.news.cap.periods: unknown key",
                "msgTypes: {news: {level: high}}|msgTypes.news.level: expected an integer",
                "whitelist: {users: [u1]}|whitelist.users: unknown key",
                "whitelist: {devices: d1}|whitelist.devices: expected a list",
                "dailyCap: 5|dailyCap: expected a mapping",
                "[1, 2]|(document): expected a mapping",
                "quietHours: {start: \"23:00\", start: \"22:00\", end: \"07:00\"}|rules do not parse",
            })
    void badRulesNameTheKey(String yaml, String message) {
        assertThatThrownBy(() -> RulesParser.parse(yaml))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining(message);
    }

    @Test
    void aPacingSectionChangesRatesWeightsAndTheRealtimeLevel() {
        Rules r =
                RulesParser.parse(
                        "pacing: {rates: {fcm: 8000, xiaomi: 1500.5}, weights: {0: 3},"
                                + " realtimeLevel: 4}");
        PacingConfig c = PacingConfig.defaults().with(r.pacing);
        assertThat(c.rate("fcm")).isEqualTo(8000.0);
        assertThat(c.rate("xiaomi")).isEqualTo(1500.5);
        assertThat(c.rate("huawei")).isEqualTo(3000.0);
        assertThat(c.weights()[0]).isEqualTo(3);
        assertThat(c.weights()[1]).isEqualTo(2);
        assertThat(c.realtimeLevel()).isEqualTo(4);
        assertThat(RulesParser.parse("dailyCap: {limit: 1}").pacing).isNull();
    }

    @Test
    void aBadPacingSectionNamesTheKey() {
        assertThatThrownBy(() -> RulesParser.parse("pacing: {rates: {fcmm: 10}}"))
                .hasMessageStartingWith("pacing.rates.fcmm: unknown vendor");
        assertThatThrownBy(() -> RulesParser.parse("pacing: {rates: {fcm: fast}}"))
                .hasMessage("pacing.rates.fcm: expected a number, got 'fast'");
        assertThatThrownBy(() -> RulesParser.parse("pacing: {rates: {fcm: 0}}"))
                .hasMessage("pacing.rates.fcm: must be a positive number, got 0.0");
        assertThatThrownBy(() -> RulesParser.parse("pacing: {weights: {16: 2}}"))
                .hasMessage("pacing.weights.16: levels are 0 to 15");
        assertThatThrownBy(() -> RulesParser.parse("pacing: {weights: {\"0\": null}}"))
                .hasMessage("pacing.weights.0: expected a level and its weight, integers");
        assertThatThrownBy(() -> RulesParser.parse("pacing: {burst: 2}"))
                .hasMessageStartingWith("pacing.burst: unknown key");
    }

    @Test
    void rulesLookingBackFurtherThanTheStateTtlAreRefused() {
        Rules r = RulesParser.parse("dedupe: {window: 10d}");
        assertThatThrownBy(() -> RulesUpdates.check(r, Duration.ofDays(8)))
                .hasMessageContaining("gate.state-ttl");
        RulesUpdates.check(r, Duration.ofDays(10));
    }

    /** Documents from push.rules are outside input: deep, alias-bombed or huge ones are refused. */
    @Test
    void hostileDocumentsAreRefusedNotThrownAsErrors() {
        String deep = "msgTypes: " + "[".repeat(10_000) + "]".repeat(10_000);
        assertThatThrownBy(() -> RulesParser.parse(deep))
                .isInstanceOf(io.pushline.udf.RulesException.class)
                .hasMessageContaining("do not parse");
        StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
        for (char c = 'b'; c <= 'p'; c++) {
            char prev = (char) (c - 1);
            bomb.append(c).append(": &").append(c).append(" [");
            bomb.append(("*" + prev + ", ").repeat(8)).append("*").append(prev).append("]\n");
        }
        assertThatThrownBy(() -> RulesParser.parse(bomb.toString()))
                .isInstanceOf(io.pushline.udf.RulesException.class);
        String huge = "timezone: UTC\n# " + "x".repeat(2 << 20) + "\n";
        assertThatThrownBy(() -> RulesParser.parse(huge))
                .isInstanceOf(io.pushline.udf.RulesException.class);
    }
}
