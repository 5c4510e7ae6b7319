package io.pushline.schema.recall;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** A user's recalled items for the date, in sending order (user_recall, row uid and date). */
@JsonPropertyOrder({"uid", "date", "items"})
public class UserRecall {
    public String uid;
    public String date;
    public RecalledItem[] items;

    public UserRecall() {}
}
