package io.pushline.schema.recall;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** A piece of content a personalized push may carry (materials.jsonl of the generator). */
@JsonPropertyOrder({"itemId", "tags", "category", "quality", "publishTs", "title", "body", "image"})
public class Material {
    public String itemId;
    public String[] tags;
    public String category;

    /** 0..1, the editors' or the model's judgement. */
    public double quality;

    /** Epoch ms. */
    public long publishTs;

    public String title;
    public String body;
    public String image;

    public Material() {}
}
