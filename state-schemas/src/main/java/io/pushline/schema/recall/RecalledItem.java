package io.pushline.schema.recall;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** One item recalled for a user, with its score and what the push will show. */
@JsonPropertyOrder({"itemId", "category", "score", "title", "body"})
public class RecalledItem {
    public String itemId;
    public String category;
    public double score;
    public String title;
    public String body;

    public RecalledItem() {}

    public static RecalledItem of(Material m, double score) {
        RecalledItem r = new RecalledItem();
        r.itemId = m.itemId;
        r.category = m.category;
        r.score = score;
        r.title = m.title;
        r.body = m.body;
        return r;
    }

    @Override
    public String toString() {
        return itemId + "(" + category + ", " + score + ")";
    }
}
