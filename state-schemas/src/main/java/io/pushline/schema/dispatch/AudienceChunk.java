package io.pushline.schema.dispatch;

import io.pushline.schema.PushRequest;

/**
 * A slice of a campaign's audience on its way from the expander to the id resolvers: dense ids
 * (ascending) and the request they all get, without its target. A slice of a long explicit list
 * carries its uids or devices instead (and no ids): they need no dictionary.
 */
public class AudienceChunk {
    public PushRequest request;
    public int[] ids;

    /** A list campaign's slice of uids, or null. */
    public String[] uids;

    /** A list campaign's slice of devices, or null. */
    public String[] devices;

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

    /** How many ids, uids or devices it carries. */
    public int size() {
        if (uids != null) {
            return uids.length;
        }
        return devices != null ? devices.length : ids.length;
    }

    /** A slice of a list campaign: {@code uids} or {@code devices}, the other null. */
    public static AudienceChunk ofList(
            PushRequest request, String[] uids, String[] devices, int index) {
        AudienceChunk c = new AudienceChunk();
        c.request = request;
        c.ids = new int[0];
        c.uids = uids;
        c.devices = devices;
        c.index = index;
        return c;
    }
}
