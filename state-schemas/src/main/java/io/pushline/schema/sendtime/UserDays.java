package io.pushline.schema.sendtime;

/**
 * A user's earliest and latest local activity minute on each looked-at day: index 0 is the day
 * before the run's date, index {@code lookbackDays - 1} the earliest day; -1 where the user had no
 * activity. Merged by taking the min and max per day.
 */
public class UserDays {
    public String uid;
    public int[] earliest;
    public int[] latest;

    public UserDays() {}

    public static UserDays of(String uid, int days, int day, int minute) {
        UserDays u = new UserDays();
        u.uid = uid;
        u.earliest = new int[days];
        u.latest = new int[days];
        java.util.Arrays.fill(u.earliest, -1);
        java.util.Arrays.fill(u.latest, -1);
        u.earliest[day] = minute;
        u.latest[day] = minute;
        return u;
    }

    /** This user's days with {@code other}'s merged in (this object, changed). */
    public UserDays merge(UserDays other) {
        for (int d = 0; d < earliest.length; d++) {
            if (other.earliest[d] >= 0 && (earliest[d] < 0 || other.earliest[d] < earliest[d])) {
                earliest[d] = other.earliest[d];
            }
            if (other.latest[d] > latest[d]) {
                latest[d] = other.latest[d];
            }
        }
        return this;
    }
}
