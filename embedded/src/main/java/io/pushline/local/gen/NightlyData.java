package io.pushline.local.gen;

import io.pushline.schema.Json;
import io.pushline.schema.Vendor;
import io.pushline.schema.recall.Material;
import io.pushline.schema.sendtime.ActivityEvent;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Generated users with known habits, deterministic by seed: each user has a zone, an interest
 * profile, one device, and a true wake-up and bedtime minute; over the days before the run's date
 * they are active on some days, first around their wake-up time and last around their bedtime
 * (jittered per day), with activity in between. The truth is kept so predictors can be scored
 * against it.
 */
public final class NightlyData {
    static final String[] ZONES = {
        "Asia/Shanghai", "Asia/Shanghai", "Asia/Shanghai", "Asia/Tokyo", "Europe/Berlin", "UTC"
    };
    static final String[] TAGS = {
        "sports", "music", "news", "comedy", "food", "travel", "tech", "games", "fashion", "kids"
    };

    static final String[] CATEGORIES = {"video", "article", "live", "album", "short", "music"};

    /** One user's truth: zone, habits (minutes of the local day) and interests. */
    public record User(
            String uid,
            String tz,
            int wake,
            int sleep,
            double activeShare,
            Map<String, Double> interests) {}

    private final long seed;
    private final LocalDate date;
    private final int days;

    /**
     * @param date the run's date: activity is on the {@code days} local dates before it
     */
    public NightlyData(long seed, LocalDate date, int days) {
        this.seed = seed;
        this.date = date;
        this.days = days;
    }

    public User user(int i) {
        SplittableRandom r = new SplittableRandom(seed * 1_000_003L + i);
        String tz = ZONES[r.nextInt(ZONES.length)];
        int wake = 5 * 60 + r.nextInt(4 * 60); // 05:00 .. 08:59
        int sleep = 21 * 60 + r.nextInt(2 * 60 + 40); // 21:00 .. 23:39
        Map<String, Double> interests = new LinkedHashMap<>();
        int n = 1 + r.nextInt(4);
        for (int k = 0; k < n; k++) {
            interests.put(TAGS[r.nextInt(TAGS.length)], Math.round(r.nextDouble() * 100) / 100.0);
        }
        return new User("u" + i, tz, wake, sleep, 0.4 + 0.6 * r.nextDouble(), interests);
    }

    /** The user's activity events, day by day (one stream per user: same events for a seed). */
    public void activity(User u, Consumer<ActivityEvent> out) {
        SplittableRandom r = new SplittableRandom(seed * 7_919L + u.uid.hashCode());
        ZoneId zone = ZoneId.of(u.tz);
        String tz = u.tz.equals("Asia/Shanghai") ? null : u.tz; // the rules' default zone
        for (int d = 1; d <= days; d++) {
            if (r.nextDouble() >= u.activeShare) {
                continue;
            }
            LocalDate day = date.minusDays(d);
            int first = clamp(u.wake + gaussian(r, 15), 0, 23 * 60 + 59);
            int last = clamp(u.sleep + gaussian(r, 20), first, 23 * 60 + 59);
            int between = r.nextInt(6);
            List<Integer> minutes = new ArrayList<>(List.of(first, last));
            for (int k = 0; k < between; k++) {
                minutes.add(first + r.nextInt(Math.max(1, last - first)));
            }
            for (int m : minutes) {
                long ts =
                        day.atStartOfDay(zone)
                                .plusMinutes(m)
                                .plusSeconds(r.nextInt(60))
                                .toInstant()
                                .toEpochMilli();
                out.accept(ActivityEvent.of(u.uid, ts, tz));
            }
        }
    }

    /**
     * Catalogue item {@code i}: one to three tags, a category, quality, published in the look-back.
     */
    public Material material(int i) {
        SplittableRandom r = new SplittableRandom(seed * 104_729L + i);
        Material m = new Material();
        m.itemId = "item" + i;
        int n = 1 + r.nextInt(3);
        java.util.LinkedHashSet<String> tags = new java.util.LinkedHashSet<>();
        for (int k = 0; k < n; k++) {
            tags.add(TAGS[r.nextInt(TAGS.length)]);
        }
        m.tags = tags.toArray(new String[0]);
        m.category = CATEGORIES[r.nextInt(CATEGORIES.length)];
        m.quality = Math.round(r.nextDouble() * 1000) / 1000.0;
        long midnight = date.atStartOfDay(ZoneId.of("UTC")).toInstant().toEpochMilli();
        m.publishTs = midnight - 1 - r.nextLong((long) days * 86_400_000L);
        m.title = "Title " + i;
        m.body = "About " + String.join(", ", m.tags);
        m.image = "https://img.example/" + i + ".jpg";
        return m;
    }

    /**
     * What the user consumed ({@code "consumed"}) and was pushed ({@code "pushed"}) over the
     * look-back: {@code {"uid","itemId","kind","ts"}}, items drawn from a catalogue of {@code
     * materials}.
     */
    public void history(User u, int materials, Consumer<Map<String, Object>> out) {
        SplittableRandom r = new SplittableRandom(seed * 31L + u.uid.hashCode());
        long midnight = date.atStartOfDay(ZoneId.of("UTC")).toInstant().toEpochMilli();
        int n = r.nextInt(8);
        for (int k = 0; k < n; k++) {
            Map<String, Object> h = new LinkedHashMap<>();
            h.put("uid", u.uid);
            h.put("itemId", "item" + r.nextInt(materials));
            h.put("kind", r.nextInt(3) == 0 ? "pushed" : "consumed");
            h.put("ts", midnight - 1 - r.nextLong((long) days * 86_400_000L));
            out.accept(h);
        }
    }

    /** The catalogue size for {@code users} users. */
    public static int materialsFor(int users) {
        return Math.max(200, users / 20);
    }

    /**
     * Writes users.jsonl (zone, interests), devices.jsonl (bind events of device.events),
     * activity.jsonl (docs/send-time.md's input), truth.jsonl (wake and sleep), materials.jsonl
     * (the catalogue) and history.jsonl (consumed and pushed items) into {@code dir}.
     */
    public void write(Path dir, int users) throws IOException {
        Files.createDirectories(dir);
        Vendor[] vendors = Vendor.values();
        long t0 =
                date.minusDays(days + 1L).atStartOfDay(ZoneId.of("UTC")).toInstant().toEpochMilli();
        try (BufferedWriter us = writer(dir, "users.jsonl");
                BufferedWriter ds = writer(dir, "devices.jsonl");
                BufferedWriter as = writer(dir, "activity.jsonl");
                BufferedWriter ts = writer(dir, "truth.jsonl");
                BufferedWriter hs = writer(dir, "history.jsonl");
                BufferedWriter ms = writer(dir, "materials.jsonl")) {
            int materials = materialsFor(users);
            for (int i = 0; i < materials; i++) {
                line(ms, Json.write(material(i)));
            }
            for (int i = 0; i < users; i++) {
                User u = user(i);
                Map<String, Object> user = new LinkedHashMap<>();
                user.put("uid", u.uid);
                user.put("tz", u.tz);
                user.put("interests", u.interests);
                line(us, Json.write(user));
                Map<String, Object> bind = new LinkedHashMap<>();
                bind.put("ts", t0);
                bind.put("type", "bind");
                bind.put("deviceId", "d" + i);
                bind.put("uid", u.uid);
                bind.put("vendor", vendors[i % vendors.length].wireName());
                bind.put("token", "t" + i);
                bind.put("tz", u.tz);
                line(ds, Json.write(bind));
                activity(u, e -> line(as, Json.write(e)));
                Map<String, Object> truth = new LinkedHashMap<>();
                truth.put("uid", u.uid);
                truth.put("wake", hhmm(u.wake));
                truth.put("sleep", hhmm(u.sleep));
                line(ts, Json.write(truth));
                history(u, materials, h -> line(hs, Json.write(h)));
            }
        }
    }

    public static String hhmm(int minute) {
        return String.format("%02d:%02d", minute / 60, minute % 60);
    }

    private static BufferedWriter writer(Path dir, String name) throws IOException {
        return Files.newBufferedWriter(dir.resolve(name), StandardCharsets.UTF_8);
    }

    private static void line(BufferedWriter w, String s) {
        try {
            w.write(s);
            w.write('\n');
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static int gaussian(SplittableRandom r, int sd) {
        // Box-Muller: SplittableRandom has no nextGaussian on Java 17
        double u1 = 1 - r.nextDouble();
        double u2 = r.nextDouble();
        return (int) Math.round(Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2) * sd);
    }

    private static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
