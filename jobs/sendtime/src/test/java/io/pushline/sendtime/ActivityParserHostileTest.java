package io.pushline.sendtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.format.HostileShapes;
import org.junit.jupiter.api.Test;

/** Activity lines: each hostile shape is a refused line with a reason, never another error. */
class ActivityParserHostileTest {
    static final String GOOD = "{\"uid\":\"u1\",\"ts\":1700000000000,\"tz\":\"Asia/Shanghai\"}";

    @Test
    void hostileActivityLinesAreRefusedWithAReason() {
        assertThat(ActivityParser.parse(GOOD).uid).isEqualTo("u1");
        for (HostileShapes.Shape s : HostileShapes.of(GOOD)) {
            assertThatThrownBy(() -> ActivityParser.parse(s.text()))
                    .as(s.name())
                    .isInstanceOf(ActivityParser.BadLine.class)
                    .hasMessageFindingMatch(".+");
            assertThat(ActivityParser.parse(GOOD).uid).isEqualTo("u1");
        }
    }
}
