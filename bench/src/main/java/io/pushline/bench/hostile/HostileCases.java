package io.pushline.bench.hostile;

import static io.pushline.bench.hostile.HostileCase.dead;
import static io.pushline.bench.hostile.HostileCase.valid;

import io.pushline.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The hostile-input suite of the dispatch job: for each input topic, records that are malformed,
 * huge, deeply nested, out of range, ambiguous or absurdly stamped. Each device token in them is
 * one of {@link #secrets()}, which must never reach the dead letters or the logs.
 */
public final class HostileCases {
    private final long now;
    private final String run;
    private final List<String> secrets = new ArrayList<>();

    /**
     * @param now the wall clock: records meant to be current are stamped with it
     * @param run makes this run's ids and tokens unique
     */
    public HostileCases(long now, String run) {
        this.now = now;
        this.run = run;
    }

    /** The tokens the cases carry: none may show in a dead letter or a log line. */
    public List<String> secrets() {
        return secrets;
    }

    private String secret(String what) {
        String s = "SECRET-" + what + "-" + run;
        secrets.add(s);
        return s;
    }

    private String bind(String extra) {
        return "{\"ts\":"
                + now
                + ",\"type\":\"bind\",\"deviceId\":\"hostile-"
                + run
                + "\",\"uid\":\"hostile-u-"
                + run
                + "\",\"vendor\":\"fcm\""
                + extra
                + "}";
    }

    private String push(long ts, String extra, String target) {
        return "{\"ts\":"
                + ts
                + ",\"type\":\"push\",\"msgId\":\"hostile-m-"
                + run
                + "\",\"msgType\":\"news\",\"title\":\"t\",\"body\":\""
                + secret("body")
                + "\""
                + extra
                + ",\"target\":"
                + target
                + "}";
    }

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    public List<HostileCase> all() {
        List<HostileCase> c = new ArrayList<>();
        deviceEvents(c);
        pushRequests(c);
        rules(c);
        feedback(c);
        return c;
    }

    private void deviceEvents(List<HostileCase> c) {
        String e = Topics.DEVICE_EVENTS;
        String tok = ",\"token\":\"" + secret("token") + "\"";
        c.add(dead(e, "not JSON", "{\"ts\": " + now + ", \"type\": \"bind\", \"deviceId\": "));
        byte[] utf8 = bind(tok).getBytes(StandardCharsets.UTF_8);
        utf8[utf8.length - 3] = (byte) 0xC3;
        c.add(new HostileCase(e, "malformed UTF-8", utf8, true));
        c.add(
                new HostileCase(
                        e,
                        "bytes that are no text at all",
                        new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 1, 2, (byte) 0x80},
                        true));
        // masked only since issue 47: plain text, an unquoted value, a numeric uid
        c.add(dead(e, "text without a quote, a token in it", "bind " + secret("plain") + " now"));
        c.add(dead(e, "a token as an unquoted value", bind(",\"token\": " + secret("bare"))));
        String phone = "1380" + (1_000_000 + Math.floorMod(run.hashCode(), 9_000_000));
        secrets.add(phone);
        c.add(
                dead(
                        e,
                        "a uid as a number (a phone number)",
                        bind(tok).replace("\"hostile-u-" + run + "\"", phone)));
        c.add(dead(e, "raw NUL byte in a string", bind(tok).replace("\"fcm\"", "\"f\u0000cm\"")));
        c.add(dead(e, "JSON nested 100,000 deep", bind(",\"tz\":" + nested(100_000))));
        c.add(
                dead(
                        e,
                        "an array of 400,000 numbers as deviceId",
                        bind(tok)
                                .replace(
                                        "\"hostile-" + run + "\"",
                                        "[" + "0,".repeat(400_000) + "0]")));
        c.add(
                dead(
                        e,
                        "960 KB of escaped control characters as token",
                        bind(",\"token\":\"" + "\\u0001".repeat(160_000) + "\"")));
        c.add(dead(e, "ts 1e400", bind(tok).replace("\"ts\":" + now, "\"ts\":1e400")));
        c.add(
                dead(
                        e,
                        "ts of 70 bits",
                        bind(tok).replace("\"ts\":" + now, "\"ts\":1180591620717411303424")));
        c.add(dead(e, "ts Long.MAX_VALUE", bind(tok).replace("" + now, "" + Long.MAX_VALUE)));
        c.add(
                valid(
                        e,
                        "bind at Long.MIN_VALUE (bound, long ago)",
                        bind(tok).replace("" + now, "" + Long.MIN_VALUE)));
        long tenYears = Duration.ofDays(3650).toMillis();
        c.add(dead(e, "ts ten years ahead", bind(tok).replace("" + now, "" + (now + tenYears))));
        c.add(
                valid(
                        e,
                        "bind ten years ago (bindings have no TTL: bound)",
                        bind(tok).replace("" + now, "" + (now - tenYears))));
        c.add(dead(e, "ts as a string", bind(tok).replace("" + now, "\"now\"")));
        c.add(dead(e, "deviceId as a number", bind(tok).replace("\"hostile-" + run + "\"", "5")));
        c.add(dead(e, "pushEnabled as a string", bind(tok + ",\"pushEnabled\":\"yes\"")));
        c.add(dead(e, "a key given twice", bind(tok + ",\"uid\":\"other\"")));
        c.add(dead(e, "unknown zone, with a token", bind(tok + ",\"tz\":\"Mars/Base\"")));
        c.add(
                dead(
                        e,
                        "token under an escaped key, unknown zone",
                        bind(",\"\\u0074oken\":\"" + secret("escaped") + "\",\"tz\":\"Mars/B\"")));
        c.add(
                dead(
                        e,
                        "token of 5,000 characters",
                        bind(",\"token\":\"" + secret("long") + "x".repeat(5_000) + "\"")));
        c.add(
                dead(
                        e,
                        "deviceId of 300 characters",
                        bind(tok).replace("hostile-" + run, "d".repeat(300))));
        c.add(dead(e, "empty record", ""));
        c.add(new HostileCase(e, "tombstone (null value)", null, true));
        c.add(dead(e, "a JSON array", "[1,2,3]"));
        c.add(dead(e, "a JSON string", "\"bind\""));
        c.add(dead(e, "unknown type", bind(tok).replace("\"bind\"", "\"rebind\"")));
    }

    private void pushRequests(List<HostileCase> c) {
        String r = Topics.PUSH_REQUESTS;
        String uids = "{\"uids\":[\"hostile-u-" + run + "\"]}";
        c.add(
                dead(
                        r,
                        "audience of 20,000 NOTs",
                        push(now, "", "{\"audience\":\"" + "NOT ".repeat(20_000) + "sports\"}")));
        c.add(
                dead(
                        r,
                        "audience of 10,000 NOTs (40 KB)",
                        push(now, "", "{\"audience\":\"" + "NOT ".repeat(10_000) + "sports\"}")));
        c.add(
                dead(
                        r,
                        "audience expression of 200 KB",
                        push(
                                now,
                                "",
                                "{\"audience\":\"" + "sports OR ".repeat(20_000) + "sports\"}")));
        c.add(
                dead(
                        r,
                        "audience nested 5,000 parentheses deep",
                        push(
                                now,
                                "",
                                "{\"audience\":\""
                                        + "(".repeat(5_000)
                                        + "sports"
                                        + ")".repeat(5_000)
                                        + "\"}")));
        long tenYears = Duration.ofDays(3650).toMillis();
        c.add(dead(r, "push ten years ahead", push(now + tenYears, "", uids)));
        c.add(dead(r, "push at Long.MIN_VALUE", push(Long.MIN_VALUE, "", uids)));
        c.add(
                dead(
                        r,
                        "'at' a year after 'ts'",
                        push(now, ",\"at\":" + (now + tenYears / 10), uids)));
        c.add(dead(r, "level 1e10", push(now, ",\"level\":1e10", uids)));
        c.add(dead(r, "level as a string", push(now, ",\"level\":\"high\"", uids)));
        c.add(dead(r, "maxRate 0", push(now, ",\"maxRate\":0", uids)));
        c.add(
                dead(
                        r,
                        "both uids and audience",
                        push(now, "", "{\"uids\":[\"u\"],\"audience\":\"sports\"}")));
        c.add(dead(r, "uids not an array", push(now, "", "{\"uids\":\"u1\"}")));
        c.add(dead(r, "uids nested deep", push(now, "", "{\"uids\":" + nested(50_000) + "}")));
        c.add(
                dead(
                        r,
                        "a uid of 300 characters",
                        push(now, "", "{\"uids\":[\"" + "u".repeat(300) + "\"]}")));
        c.add(dead(r, "msgId given twice", push(now, ",\"msgId\":\"again\"", uids)));
        c.add(dead(r, "target missing", push(now, "", "null")));
        c.add(
                valid(
                        r,
                        "free-text msgType (decided, counted under 'other')",
                        push(now, "", uids).replace("\"news\"", "\"news-" + run + "\"")));
        c.add(
                valid(
                        r,
                        "title of 500 KB (decided)",
                        push(now, "", uids)
                                .replace(
                                        "\"title\":\"t\"",
                                        "\"title\":\"" + "t".repeat(500_000) + "\"")));
    }

    private void rules(List<HostileCase> c) {
        String r = Topics.RULES;
        c.add(
                dead(
                        r,
                        "YAML alias bomb",
                        "a: &a [x, x, x, x, x, x, x, x, x]\n"
                                + "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                                + "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                                + "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                                + "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                                + "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                                + "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
                                + "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
                                + "i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n"));
        c.add(dead(r, "YAML nested 50,000 deep", "msgTypes: " + nested(50_000)));
        c.add(dead(r, "a null pacing weight", "pacing: {weights: {\"0\": null}}"));
        c.add(
                valid(
                        r,
                        "null sections (read as absent)",
                        "quietHours: null\nmsgTypes: {news: null}"));
        c.add(dead(r, "600 KB of unknown keys", "k: [" + "1, ".repeat(200_000) + "1]"));
        c.add(new HostileCase(r, "binary", new byte[] {0, 1, 2, (byte) 0xFF, '{', '[', ':'}, true));
    }

    private void feedback(List<HostileCase> c) {
        String f = Topics.VENDOR_FEEDBACK;
        c.add(dead(f, "unknown vendor", "{\"vendor\":\"nokia\",\"status\":\"throttled\"}"));
        c.add(dead(f, "JSON nested 100,000 deep", "{\"vendor\":" + nested(100_000) + "}"));
        c.add(dead(f, "not JSON", "throttled!"));
        c.add(
                dead(
                        f,
                        "code out of range",
                        "{\"vendor\":\"fcm\",\"status\":\"throttled\",\"code\":1e400}"));
    }
}
