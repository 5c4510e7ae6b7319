package io.pushline.receipts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.OptionsParser;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class ReceiptsOptionsTest {
    @Test
    void theReceiptsJobHasItsOwnKeyGroupsAndRefusesTheDispatchJobs() {
        Configuration c =
                OptionsParser.parse(
                        new String[] {"--receipts.max-parallelism", "360"},
                        ReceiptsOptions.accepted());
        assertThat(c.get(ReceiptsOptions.MAX_PARALLELISM)).isEqualTo(360);
        assertThatThrownBy(
                        () ->
                                OptionsParser.parse(
                                        new String[] {"--dispatch.max-parallelism", "360"},
                                        ReceiptsOptions.accepted()))
                .hasMessageContaining("unknown option 'dispatch.max-parallelism'");
    }

    @Test
    void everyOwnKeyIsUnderTheJobsPrefix() {
        assertThat(ReceiptsOptions.own())
                .allSatisfy(o -> assertThat(o.key()).startsWith("receipts."));
    }
}
