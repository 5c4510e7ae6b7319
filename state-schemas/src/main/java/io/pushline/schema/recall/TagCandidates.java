package io.pushline.schema.recall;

/** One tag's best items by quality and freshness: what every user with that tag is scored on. */
public class TagCandidates {
    public String tag;
    public Material[] items;

    public TagCandidates() {}
}
