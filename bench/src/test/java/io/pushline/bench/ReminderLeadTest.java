package io.pushline.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ReminderLeadTest {
    private final ReminderLead.Converter converter = new ReminderLead.Converter();

    @Test
    void autoCoversTheRoundsEventsAtAFifthBelowTheMeasuredRateWithAMargin() {
        // 3.9 million events at 12,000 a second measured: 406.25 s at 9,600 a second, plus 30
        assertThat(ReminderLead.AUTO.seconds(3_900_000, 12_000)).isEqualTo(437);
        // on a fast day the lead shrinks, but never below the least
        assertThat(ReminderLead.AUTO.seconds(3_900_000, 28_000)).isEqualTo(205);
        assertThat(ReminderLead.AUTO.seconds(1_000, 28_000)).isEqualTo(60);
    }

    @Test
    void aRoundsEventsAreItsTasksSubscribesAndThePullsOfThirtyPercent() {
        // 3 creates, 3 x 10 subscribes, 3 of every 10 subscribers pull each task
        assertThat(ReminderCalibration.plannedEvents(3, 10)).isEqualTo(3 + 30 + 9);
        assertThat(ReminderCalibration.plannedEvents(3, 1_000_000)).isEqualTo(3_900_003);
    }

    @Test
    void aFixedLeadIsKeptWhateverTheRate() {
        ReminderLead fixed = converter.convert("150");
        assertThat(fixed.auto()).isFalse();
        assertThat(fixed.seconds(3_900_000, 100)).isEqualTo(150);
    }

    @Test
    void readsAutoOrPositiveSecondsAndNamesTheOptionOtherwise() {
        assertThat(converter.convert(" AUTO ").auto()).isTrue();
        for (String bad : new String[] {"0", "-5", "soon", ""}) {
            assertThatThrownBy(() -> converter.convert(bad))
                    .isInstanceOf(CommandLine.TypeConversionException.class)
                    .hasMessageContaining("--lead");
        }
    }

    @Test
    void autoWithoutAMeasuredRateIsAnError() {
        assertThatThrownBy(() -> ReminderLead.AUTO.seconds(10, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
