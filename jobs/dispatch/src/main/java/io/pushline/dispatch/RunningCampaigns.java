package io.pushline.dispatch;

import io.pushline.audience.eval.IdSet;
import io.pushline.schema.dispatch.CampaignProgress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The campaigns the expander is walking, in round-robin order: each with its checkpointed progress,
 * the audience it walks and when its own rate allows its next chunk.
 */
final class RunningCampaigns {

    /** A campaign being expanded. */
    static final class Campaign {
        final CampaignProgress progress;
        final IdSet audience;

        /** Processing time before which its rate allows no next chunk. */
        long nextDueMs;

        Campaign(CampaignProgress progress, IdSet audience) {
            this.progress = progress;
            this.audience = audience;
        }

        /**
         * Ids per second: its own {@code maxRate} and {@code limit}, the lower of those given; 0
         * for no limit.
         */
        long rate(long limit) {
            Integer own = progress.request.maxRate;
            if (own == null) {
                return limit;
            }
            return limit > 0 ? Math.min(limit, own) : own;
        }
    }

    private final ArrayDeque<Campaign> all = new ArrayDeque<>();

    /** Resumes the campaigns a checkpoint held. */
    void restore(Iterable<CampaignProgress> checkpointed) {
        for (CampaignProgress p : checkpointed) {
            all.add(new Campaign(p, IdSet.fromBytes(p.audience)));
        }
    }

    /** What a checkpoint keeps: each campaign's progress (its audience and the next id). */
    List<CampaignProgress> snapshot() {
        List<CampaignProgress> out = new ArrayList<>(all.size());
        for (Campaign c : all) {
            out.add(c.progress);
        }
        return out;
    }

    void start(CampaignProgress progress, IdSet audience) {
        all.add(new Campaign(progress, audience));
    }

    boolean isEmpty() {
        return all.isEmpty();
    }

    int size() {
        return all.size();
    }

    Campaign first() {
        return all.peek();
    }

    void remove(Campaign c) {
        all.remove(c);
    }

    /** The first campaign whose rate allows a chunk at {@code now}, or null. */
    Campaign due(long now) {
        for (Campaign c : all) {
            if (c.nextDueMs <= now) {
                return c;
            }
        }
        return null;
    }

    /** When the earliest campaign may go on; {@code Long.MAX_VALUE} when none runs. */
    long earliestDueMs() {
        long due = Long.MAX_VALUE;
        for (Campaign c : all) {
            due = Math.min(due, c.nextDueMs);
        }
        return due;
    }

    /** Puts {@code c} last, so that a slow campaign does not hold the others back. */
    void rotate(Campaign c) {
        if (all.remove(c)) {
            all.addLast(c);
        }
    }

    /** Just below the earliest event time of those running, or {@code w} when that is lower. */
    long holdBelow(long w) {
        for (Campaign c : all) {
            w = Math.min(w, c.progress.request.ts - 1);
        }
        return w;
    }

    /** The bytes of the audiences held on the heap. */
    long heldBytes() {
        long n = 0;
        for (Campaign c : all) {
            n += c.progress.audience.length;
        }
        return n;
    }

    long pendingIds() {
        long n = 0;
        for (Campaign c : all) {
            n += c.progress.size - c.progress.idsEmitted;
        }
        return n;
    }
}
