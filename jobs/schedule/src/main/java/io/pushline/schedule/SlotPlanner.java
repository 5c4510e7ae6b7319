package io.pushline.schedule;

import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.schema.recall.RecalledItem;
import io.pushline.schema.recall.UserRecall;
import io.pushline.schema.sendtime.SendTime;
import java.io.Serializable;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * A user's personal schedule for a date: one push request per recalled item, in the recall's
 * sending order, at slots spread evenly from the predicted first to the predicted last time (both
 * included) in the user's zone. Slots are whole minutes; a last time before the first one means the
 * user's evening runs past midnight, so the slots do too.
 *
 * <p>Each request has {@code at} = the slot and {@code ts} = the slot minus the lead: it is meant
 * to enter the dispatch job {@code lead} ahead and wait there in the scheduler until its slot.
 */
public final class SlotPlanner implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final String MSG_TYPE = "personal";

    private final LocalDate date;
    private final ZoneId fallbackZone;
    private final long leadMs;
    private final long deadlineMs;

    /**
     * @param fallbackZone the zone of users whose profile has none
     * @param lead how long before its slot a request enters dispatch
     * @param deadline how long after its slot a request may still wait for its vendor (zero: no
     *     deadline)
     */
    public SlotPlanner(LocalDate date, ZoneId fallbackZone, Duration lead, Duration deadline) {
        this.date = date;
        this.fallbackZone = fallbackZone;
        this.leadMs = lead.toMillis();
        this.deadlineMs = deadline.toMillis();
    }

    public List<PushRequest> plan(SendTime times, UserRecall recall) {
        List<PushRequest> out = new ArrayList<>();
        RecalledItem[] items = recall.items;
        if (items == null || items.length == 0) {
            return out;
        }
        ZoneId zone = recall.tz != null ? ZoneId.of(recall.tz) : fallbackZone;
        LocalDateTime first = LocalDateTime.of(date, LocalTime.parse(times.first));
        LocalDateTime last = LocalDateTime.of(date, LocalTime.parse(times.last));
        if (last.isBefore(first)) {
            last = last.plusDays(1);
        }
        long span = Duration.between(first, last).toMinutes();
        for (int i = 0; i < items.length; i++) {
            long offset =
                    items.length == 1 ? 0 : Math.round(span * (double) i / (items.length - 1));
            long at = first.plusMinutes(offset).atZone(zone).toInstant().toEpochMilli();
            out.add(request(recall.uid, i, items[i], at));
        }
        return out;
    }

    private PushRequest request(String uid, int slot, RecalledItem item, long at) {
        PushRequest p = new PushRequest();
        p.ts = at - leadMs;
        p.at = at;
        p.msgId = msgId(uid, slot);
        p.msgType = MSG_TYPE;
        p.title = item.title;
        p.body = item.body;
        p.target = Target.ofUids(List.of(uid));
        if (deadlineMs > 0) {
            p.deadline = at + deadlineMs;
        }
        return p;
    }

    /** {@code personal-DATE-UID-SLOT}: one message per user and slot, never sent twice. */
    public String msgId(String uid, int slot) {
        return MSG_TYPE + "-" + date + "-" + uid + "-" + slot;
    }
}
