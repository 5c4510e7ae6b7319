package io.pushline.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.receipts.ReceiptEvent;
import io.pushline.schema.segments.MemberRow;
import io.pushline.schema.segments.SegmentChange;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every reader of an input topic against the hostile shapes of its own good record: each shape is
 * refused with a reason (never thrown), its dead letter is bounded and shows no secret, and the
 * good record after it still reads.
 */
class HostileInputTest {
    static final String SECRET = "SECRET-TOKEN-42";

    /** What reading one record gave: the dead letter, or null when it was read. */
    private static void check(String good, Function<String, DeadLetter> read) {
        assertThat(read.apply(good)).as("the good record").isNull();
        List<HostileShapes.Shape> shapes = HostileShapes.of(good);
        assertThat(shapes).hasSizeGreaterThanOrEqualTo(10);
        for (HostileShapes.Shape s : shapes) {
            DeadLetter d = read.apply(s.text());
            assertThat(d).as(s.name()).isNotNull();
            assertThat(d.reason).as(s.name()).isNotBlank();
            assertThat(Json.write(d)).as(s.name()).doesNotContain(SECRET).hasSizeLessThan(16_384);
            assertThat(read.apply(good)).as("the good record after " + s.name()).isNull();
        }
    }

    @Test
    void deviceEventsAndRequests() {
        WireParser p = new WireParser(true);
        Function<String, DeadLetter> read = t -> p.parse(t, "device.events", "0-1", 1).dead;
        check(
                "{\"ts\":1767225600000,\"type\":\"bind\",\"deviceId\":\"d1\",\"uid\":\"u1\","
                        + "\"vendor\":\"fcm\",\"token\":\""
                        + SECRET
                        + "\"}",
                read);
        check(
                "{\"ts\":1767225600000,\"type\":\"push\",\"msgId\":\"m1\",\"msgType\":\"news\","
                        + "\"title\":\"t\",\"body\":\""
                        + SECRET
                        + "\",\"target\":{\"uids\":[\"u1\"]}}",
                read);
    }

    @Test
    void receiptsAndDecisions() {
        Function<String, DeadLetter> receipts =
                t -> ReceiptParser.parse(Topics.RECEIPTS, t, "0-1").dead;
        check(
                "{\"ts\":1767225600000,\"type\":\"token_invalid\",\"msgId\":\"m1\",\"deviceId\":\"d1\","
                        + "\"vendor\":\"fcm\",\"token\":\""
                        + SECRET
                        + "\"}",
                receipts);
        Function<String, DeadLetter> decisions =
                t -> {
                    ReceiptEvent e = ReceiptParser.parse(Topics.DECISIONS, t, "0-1");
                    return e.dead;
                };
        check(
                "{\"ts\":1767225600000,\"msgId\":\"m1\",\"uid\":\""
                        + SECRET
                        + "\",\"deviceId\":\"d1\","
                        + "\"vendor\":\"fcm\",\"decision\":\"PASS\",\"code\":0,\"msgType\":\"news\"}",
                decisions);
    }

    @Test
    void segmentChanges() {
        Function<String, DeadLetter> read =
                t -> {
                    MemberRow r = SegmentChange.parse(t, "segment.changes", 0, 1);
                    return r.dead;
                };
        check(
                "{\"ts\":1767225600000,\"segment\":\"sports\",\"uid\":\""
                        + SECRET
                        + "\","
                        + "\"op\":\"add\"}",
                read);
    }

    /** Package files: one uid per line; a line that is no uid is refused, the next one read. */
    @Test
    void packageFileLines() {
        for (String bad :
                new String[] {
                    "u\u0000x", "u1 u2",
                            "u".repeat(io.pushline.schema.segments.MemberRows.MAX_UID_LENGTH + 1),
                    "\u0001\u0002", "u\tx", "x".repeat(2_000_000)
                }) {
            MemberRow r = io.pushline.schema.segments.MemberRows.fromLine("s", bad, "s.txt", 7);
            assertThat(r.dead).as(bad.substring(0, Math.min(20, bad.length()))).isNotNull();
            assertThat(r.dead.reason).startsWith("malformed uid");
            assertThat(Json.write(r.dead)).hasSizeLessThan(16_384);
            assertThat(io.pushline.schema.segments.MemberRows.fromLine("s", "u1", "s.txt", 8).uid)
                    .isEqualTo("u1");
        }
    }
}
