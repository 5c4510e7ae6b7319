package io.pushline.sendtime.predict;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.sendtime.SendTime;
import io.pushline.schema.sendtime.UserDays;
import org.junit.jupiter.api.Test;

class HistogramPredictorTest {

    @Test
    void theTimeIsTheMiddleOfTheBinOfTheWeightedMedian() {
        // yesterday 07:12, then 07:18, 07:14, and one odd day at 05:02
        int[] first = {7 * 60 + 12, 7 * 60 + 18, 5 * 60 + 2, 7 * 60 + 14};
        assertThat(HistogramPredictor.median(first)).isEqualTo(7 * 60 + 15);
        assertThat(HistogramPredictor.median(new int[] {-1, 22 * 60 + 31, -1}))
                .isEqualTo(22 * 60 + 35);
    }

    @Test
    void recentDaysWeighMoreSoAChangedHabitWins() {
        // three recent days at 06:40, four older ones at 08:00: 1 + 0.8 + 0.64 > the rest
        int[] first = {400, 400, 400, 480, 480, 480, 480};
        assertThat(HistogramPredictor.median(first)).isEqualTo(6 * 60 + 45);
    }

    @Test
    void timesStayWithinTheirBounds() {
        UserDays u = new UserDays();
        u.uid = "u1";
        u.earliest = new int[] {3 * 60, 3 * 60};
        u.latest = new int[] {18 * 60, 18 * 60};
        assertThat(HistogramPredictor.predict(u)).isEqualTo(SendTime.of("u1", "05:00", "20:00"));
    }
}
