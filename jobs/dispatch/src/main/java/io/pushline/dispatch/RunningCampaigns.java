package io.pushline.dispatch;

import io.pushline.audience.eval.IdSet;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.CampaignProgress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The campaigns the expander is walking, in round-robin order: each with its checkpointed progress,
 * the audience it walks and when its own rate allows its next chunk.
 */
final class RunningCampaigns {

    /** A campaign being expanded. */
    static final class Campaign {
        final CampaignProgress progress;

        /** The audience it walks; null for a list campaign (its progress holds the list). */
        final IdSet audience;

        /** Processing time before which its rate allows no next chunk. */
        long nextDueMs;

        Campaign(CampaignProgress progress, IdSet audience) {
            this.progress = progress;
            this.audience = audience;
        }

        /** Whether every id or listed target has been emitted. */
        boolean done() {
            return progress.idsEmitted >= progress.size || progress.nextId < 0;
        }

        /**
         * The next chunk of at most {@code size}, carrying {@code request}, with the progress moved
         * past it; null when nothing is left.
         */
        AudienceChunk next(int size, PushRequest request) {
            CampaignProgress p = progress;
            AudienceChunk c;
            if (p.isList()) {
                String[] all = p.uids != null ? p.uids : p.devices;
                int from = (int) Math.min(p.nextId, all.length);
                int to = Math.min(all.length, from + size);
                if (to <= from) {
                    p.nextId = -1;
                    return null;
                }
                String[] slice = Arrays.copyOfRange(all, from, to);
                c =
                        AudienceChunk.ofList(
                                request,
                                p.uids != null ? slice : null,
                                p.uids != null ? null : slice,
                                p.chunksEmitted);
                p.nextId = to;
            } else {
                int[] ids = audience.chunk(p.nextId, size);
                if (ids.length < size) {
                    p.nextId = -1; // the bitmap has no more ids
                }
                if (ids.length == 0) {
                    return null;
                }
                c = AudienceChunk.of(request, ids, p.chunksEmitted);
                if (p.nextId >= 0) {
                    p.nextId = (ids[ids.length - 1] & 0xFFFFFFFFL) + 1;
                }
            }
            p.chunksEmitted++;
            p.idsEmitted += c.size();
            return c;
        }

        /** The request's level (0 when it has none). */
        int level() {
            Integer l = progress.request.level;
            return l == null ? 0 : l;
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
            all.add(new Campaign(p, p.isList() ? null : IdSet.fromBytes(p.audience)));
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

    /**
     * The campaign whose rate allows a chunk at {@code now}: of the highest level among those, the
     * first in round-robin order; null when none may go on. A live-start push listing a host's
     * followers thus overtakes a bulk campaign here, before the stages it would otherwise queue
     * behind, as it overtakes it again at the pacer.
     */
    Campaign due(long now) {
        Campaign best = null;
        for (Campaign c : all) {
            if (c.nextDueMs <= now && (best == null || c.level() > best.level())) {
                best = c;
            }
        }
        return best;
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
            CampaignProgress p = c.progress;
            // a list's strings: about 40 bytes each on the heap, with their headers
            n += p.isList() ? 40L * p.size : p.audience.length;
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
