package io.pushline.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.PushRequest;
import io.pushline.schema.recall.RecalledItem;
import io.pushline.schema.recall.UserRecall;
import io.pushline.schema.sendtime.SendTime;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SlotPlannerTest {
    static final LocalDate D = LocalDate.of(2026, 11, 23);
    static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

    @Test
    void spreadsSlotsEvenlyFromFirstToLastInTheUsersZone() {
        SlotPlanner planner = planner(D, Duration.ofMinutes(30), Duration.ofHours(1));
        List<PushRequest> slots =
                planner.plan(SendTime.of("u1", "08:00", "22:00"), recall("Europe/Berlin", 5));

        assertThat(local(slots, ZoneId.of("Europe/Berlin")))
                .containsExactly("08:00", "11:30", "15:00", "18:30", "22:00");
        PushRequest first = slots.get(0);
        assertThat(first.at)
                .isEqualTo(
                        ZonedDateTime.of(D.atTime(8, 0), ZoneId.of("Europe/Berlin"))
                                .toInstant()
                                .toEpochMilli());
        assertThat(first.ts).isEqualTo(first.at - 30 * 60_000L);
        assertThat(first.deadline).isEqualTo(first.at + 3_600_000L);
        assertThat(first.msgType).isEqualTo("personal");
        assertThat(first.msgId).isEqualTo("personal-2026-11-23-u1-0");
        assertThat(first.target.uids).containsExactly("u1");
        assertThat(slots.stream().map(p -> p.title)).containsExactly("T0", "T1", "T2", "T3", "T4");
        assertThat(slots.stream().map(p -> p.msgId).distinct()).hasSize(5);
    }

    @Test
    void oneItemGoesAtTheFirstTimeAndNoItemsMeansNoSlots() {
        SlotPlanner planner = planner(D, Duration.ZERO, Duration.ZERO);
        List<PushRequest> one = planner.plan(SendTime.of("u1", "07:13", "21:40"), recall(null, 1));
        assertThat(local(one, SHANGHAI)).containsExactly("07:13");
        assertThat(one.get(0).deadline).isNull();
        assertThat(one.get(0).ts).isEqualTo(one.get(0).at);
        assertThat(planner.plan(SendTime.of("u1", "07:13", "21:40"), recall(null, 0))).isEmpty();
    }

    @Test
    void roundsToWholeMinutesAndKeepsLocalTimesOnADstDay() {
        LocalDate dst = LocalDate.of(2026, 3, 29); // Europe/Berlin skips 02:00-03:00
        SlotPlanner planner = planner(dst, Duration.ZERO, Duration.ZERO);
        List<PushRequest> slots =
                planner.plan(SendTime.of("u1", "06:00", "06:10"), recall("Europe/Berlin", 4));
        assertThat(local(slots, ZoneId.of("Europe/Berlin")))
                .containsExactly("06:00", "06:03", "06:07", "06:10");
        assertThat(Instant.ofEpochMilli(slots.get(0).at).toString())
                .isEqualTo("2026-03-29T04:00:00Z"); // CEST, UTC+2
    }

    @Test
    void aLastTimeBeforeTheFirstRunsPastMidnight() {
        SlotPlanner planner = planner(D, Duration.ZERO, Duration.ZERO);
        List<PushRequest> slots =
                planner.plan(SendTime.of("u1", "22:00", "02:00"), recall("UTC", 3));
        assertThat(slots.stream().map(p -> Instant.ofEpochMilli(p.at).toString()))
                .containsExactly(
                        "2026-11-23T22:00:00Z", "2026-11-24T00:00:00Z", "2026-11-24T02:00:00Z");
    }

    private static SlotPlanner planner(LocalDate date, Duration lead, Duration deadline) {
        return new SlotPlanner(date, SHANGHAI, lead, deadline);
    }

    private static List<String> local(List<PushRequest> slots, ZoneId zone) {
        return slots.stream()
                .map(p -> Instant.ofEpochMilli(p.at).atZone(zone).toLocalTime().toString())
                .collect(Collectors.toList());
    }

    private static UserRecall recall(String tz, int n) {
        UserRecall r = new UserRecall();
        r.uid = "u1";
        r.date = D.toString();
        r.tz = tz;
        r.items = new RecalledItem[n];
        for (int i = 0; i < n; i++) {
            RecalledItem item = new RecalledItem();
            item.itemId = "i" + i;
            item.category = "c" + i;
            item.title = "T" + i;
            item.body = "B" + i;
            r.items[i] = item;
        }
        return r;
    }
}
