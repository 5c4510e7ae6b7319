package io.pushline.schema.dispatch;

import io.pushline.schema.PushRequest;

/**
 * A slice of a campaign's audience on its way from the expander to the id resolvers: dense ids
 * (ascending) and the request they all get, without its target.
 */
public class AudienceChunk {
    public PushRequest request;
    public int[] ids;

    /** 0-based position of the chunk within its campaign. */
    public int index;

    public AudienceChunk() {}

    public static AudienceChunk of(PushRequest request, int[] ids, int index) {
        AudienceChunk c = new AudienceChunk();
        c.request = request;
        c.ids = ids;
        c.index = index;
        return c;
    }
}
