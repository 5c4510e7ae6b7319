package io.pushline.schema.dispatch;

import io.pushline.schema.PushRequest;

/**
 * A campaign being expanded, as checkpointed: the request (without its target), the evaluated
 * audience as a serialized Roaring bitmap, and how far the expansion got. Restoring resumes at
 * {@code nextId}, so no chunk is lost or repeated.
 */
public class CampaignProgress {
    public PushRequest request;

    /** The evaluated audience, run-optimized Roaring bytes (validated when read back). */
    public byte[] audience;

    /** The smallest id not yet emitted. */
    public long nextId;

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
}
