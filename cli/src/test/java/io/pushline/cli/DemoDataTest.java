package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class DemoDataTest {
    @Test
    void leakedTokensFindsATokenWhereverItSits() {
        Set<String> tokens = Set.of("9f3a0c11d2e4b5a6", "7d1e2f3a4b5c");
        assertThat(DemoData.leakedTokens("nothing here, cafe", tokens)).isZero();
        assertThat(DemoData.leakedTokens("{\"token\":\"9f3a0c11d2e4b5a6\"}", tokens)).isOne();
        assertThat(DemoData.leakedTokens("x=7D1E2F3A4B5C at the end 7d1e2f3a4b5c", tokens)).isOne();
        assertThat(DemoData.leakedTokens("ab9f3a0c11d2e4b5a6 7d1e2f3a4b5c", tokens)).isEqualTo(2);
    }

    @Test
    void theDemoBindsOneTokenPerBindAndRefusesOneOfThem() {
        DemoData d = DemoData.generate(200, 20, 42L, 1_000L);
        assertThat(d.tokens).hasSizeGreaterThanOrEqualTo(200);
        assertThat(d.deviceEvents.stream().filter(kv -> kv[1].contains("Mars/Base"))).hasSize(1);
    }
}
