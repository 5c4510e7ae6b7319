package io.pushline.schema.recall;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** A user's recalled items for the date, in sending order (user_recall, row uid and date). */
@JsonPropertyOrder({"uid", "date", "tz", "items"})
public class UserRecall {
    public String uid;
    public String date;

    /** The user's zone from the profile (the personal schedule places slots in it), or null. */
    public String tz;

    public RecalledItem[] items;

    public UserRecall() {}
}
