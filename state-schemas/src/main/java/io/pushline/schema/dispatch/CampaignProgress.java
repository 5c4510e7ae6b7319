package io.pushline.schema.dispatch;

import io.pushline.schema.PushRequest;

/**
 * A campaign being expanded, as checkpointed: the request (without its target), the evaluated
 * audience as a serialized Roaring bitmap, and how far the expansion got. Restoring resumes at
 * {@code nextId}, so no chunk is lost or repeated.
 *
 * <p>A long explicit list (a request's {@code target.uids} or {@code target.devices}) is expanded
 * the same way: then {@code uids} or {@code devices} holds the list (de-duplicated, in its order),
 * {@code audience} is null and {@code nextId} is the index of the first target not yet emitted.
 * Both fields were added after the first version; state written before has them null.
 */
public class CampaignProgress {
    public PushRequest request;

    /** The evaluated audience, run-optimized Roaring bytes (validated when read back). */
    public byte[] audience;

    /** The smallest id not yet emitted. */
    public long nextId;

    /** A list campaign's uids, or null. */
    public String[] uids;

    /** A list campaign's devices, or null. */
    public String[] devices;

    public int chunksEmitted;
    public long idsEmitted;
    public long size;

    public CampaignProgress() {}

    public static CampaignProgress start(PushRequest request, byte[] audience, long size) {
        CampaignProgress p = new CampaignProgress();
        p.request = request;
        p.audience = audience;
        p.size = size;
        return p;
    }

    /** A list campaign: {@code uids} or {@code devices} (the other null), in emission order. */
    public static CampaignProgress list(PushRequest request, String[] uids, String[] devices) {
        CampaignProgress p = new CampaignProgress();
        p.request = request;
        p.uids = uids;
        p.devices = devices;
        p.size = uids != null ? uids.length : devices.length;
        return p;
    }

    /** Whether this is a list campaign (no audience bitmap). */
    public boolean isList() {
        return uids != null || devices != null;
    }
}
