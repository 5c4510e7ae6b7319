package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.audience.NoSuchAudienceException;
import io.pushline.audience.SavedAudienceStore;
import io.pushline.audience.eval.ExpressionException;
import io.pushline.audience.eval.IdSet;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.CampaignProgress;
import java.util.LinkedHashSet;

/**
 * What a request to the campaign expander becomes: a campaign to walk (its progress and, for an
 * audience, the evaluated bitmap), a dead letter, or a wait because the segment store failed. Kept
 * apart from the operator so that the operator holds only the pacing of the walk.
 *
 * @param progress the campaign to start; null when there is nothing to walk
 * @param audience its audience; null for a list
 * @param rejected the dead letter it became, or null
 * @param storeFailure the store's failure when it must wait and be asked again, or null
 * @param description what it selects, for the log
 */
record CampaignStart(
        CampaignProgress progress,
        IdSet audience,
        DeadLetter rejected,
        Throwable storeFailure,
        String description) {
    static final String REJECTED = "audience expression rejected: ";

    /**
     * Evaluates {@code in}: a list needs no store; an audience expression or saved audience is
     * evaluated against {@code audiences}.
     *
     * @param failures the expander's failures so far, to bound the dead letters' detail
     */
    static CampaignStart of(Audiences audiences, ParsedRecord in, long failures) {
        PushRequest p = in.request;
        if (isList(p)) {
            return list(p);
        }
        String expression = p.target.audience;
        IdSet audience;
        try {
            if (p.target.savedAudience != null) {
                SavedAudienceStore.Version v = audiences.saved(p.target.savedAudience);
                expression = v.expression;
                audiences.usedBy(p.target.savedAudience, v.version, p.msgId, p.ts);
            }
            audience = audiences.evaluate(expression);
        } catch (NoSuchAudienceException e) {
            return rejected(DeadLetter.of(in.source, in.position, e.getMessage(), Json.write(p)));
        } catch (ExpressionException e) {
            return rejected(
                    DeadLetter.of(
                            in.source, in.position, REJECTED + e.getMessage(), Json.write(p)));
        } catch (Throwable t) {
            if (RecordFailure.isOutsideFailure(t)) {
                return new CampaignStart(null, null, null, t, null);
            }
            return rejected(
                    RecordFailure.deadLetter(
                            "campaign-expander",
                            in.source + " " + in.position,
                            () -> Json.write(p),
                            t,
                            failures + 1));
        }
        long size = audience.cardinality();
        String description =
                "'"
                        + expression
                        + "'"
                        + (p.target.savedAudience == null
                                ? ""
                                : " (" + p.target.savedAudience + ")")
                        + " selects "
                        + size
                        + " ids";
        CampaignProgress progress =
                size == 0
                        ? null
                        : CampaignProgress.start(p.withoutTarget(), audience.toBytes(), size);
        return new CampaignStart(progress, audience, null, null, description);
    }

    /** Each listed target once, in the order listed. */
    private static CampaignStart list(PushRequest p) {
        boolean uids = p.target.uids != null;
        String[] targets =
                new LinkedHashSet<>(uids ? p.target.uids : p.target.devices).toArray(new String[0]);
        CampaignProgress progress =
                targets.length == 0
                        ? null
                        : CampaignProgress.list(
                                p.withoutTarget(), uids ? targets : null, uids ? null : targets);
        return new CampaignStart(
                progress,
                null,
                null,
                null,
                "a list of " + targets.length + (uids ? " uids" : " devices"));
    }

    /** Whether {@code p} targets an explicit list of uids or devices (no store needed). */
    static boolean isList(PushRequest p) {
        return p.target.uids != null || p.target.devices != null;
    }

    private static CampaignStart rejected(DeadLetter dead) {
        return new CampaignStart(null, null, dead, null, null);
    }

    boolean isList() {
        return progress != null && progress.isList();
    }
}
