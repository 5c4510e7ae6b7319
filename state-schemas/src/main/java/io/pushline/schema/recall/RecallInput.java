package io.pushline.schema.recall;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * What recall knows of a user, one record at a time, keyed by uid: the interest profile ({@code
 * kind} "profile", tags with weights) or an item the user consumed or was pushed ("consumed",
 * "pushed", with its time).
 */
@TypeInfo(RecallInputSerializer.Factory.class)
public class RecallInput {
    public static final String PROFILE = "profile";
    public static final String CONSUMED = "consumed";
    public static final String PUSHED = "pushed";

    public String uid;
    public String kind;

    /** The user's zone (profiles only), for the personal schedule; null when unknown. */
    public String tz;

    public String[] tags;
    public double[] weights;
    public String itemId;
    public long ts;

    public RecallInput() {}
}
