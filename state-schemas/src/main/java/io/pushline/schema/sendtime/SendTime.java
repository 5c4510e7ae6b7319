package io.pushline.schema.sendtime;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/** A user's predicted local time of the day's first and last push, {@code HH:MM}. */
@JsonPropertyOrder({"uid", "first", "last"})
public class SendTime {
    public String uid;
    public String first;
    public String last;

    public SendTime() {}

    public static SendTime of(String uid, String first, String last) {
        SendTime s = new SendTime();
        s.uid = uid;
        s.first = first;
        s.last = last;
        return s;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SendTime
                && Objects.equals(uid, ((SendTime) o).uid)
                && Objects.equals(first, ((SendTime) o).first)
                && Objects.equals(last, ((SendTime) o).last);
    }

    @Override
    public int hashCode() {
        return Objects.hash(uid, first, last);
    }

    @Override
    public String toString() {
        return uid + " " + first + "-" + last;
    }
}
