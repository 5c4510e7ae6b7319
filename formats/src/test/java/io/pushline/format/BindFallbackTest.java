package io.pushline.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Fallback;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.Topics;
import org.junit.jupiter.api.Test;

/** A bind's optional fallback channel, as the streaming job reads it. */
class BindFallbackTest {
    private static final String BIND =
            "{\"ts\":1,\"type\":\"bind\",\"deviceId\":\"d\",\"uid\":\"u\",\"vendor\":\"longconn\","
                    + "\"token\":\"conn\"%s}";

    @Test
    void theStreamingJobKeepsIt() {
        ParsedRecord r = stream(",\"fallback\":{\"vendor\":\"huawei\",\"token\":\"hw\"}");
        assertThat(r.event.fallback).isEqualTo(Fallback.of("huawei", "hw"));
        assertThat(stream("").event.fallback).isNull();
        assertThat(stream(",\"fallback\":null").event.fallback).isNull();
    }

    @Test
    void aBadOneIsABadRecordAndNeverShowsItsToken() {
        for (String[] c :
                new String[][] {
                    {",\"fallback\":\"huawei\"", "'fallback'"},
                    {",\"fallback\":{\"token\":\"secret-hw\"}", "'fallback.vendor'"},
                    {
                        ",\"fallback\":{\"vendor\":\"longconn\",\"token\":\"secret-hw\"}",
                        "not a vendor"
                    },
                    {
                        ",\"fallback\":{\"vendor\":\"pager\",\"token\":\"secret-hw\"}",
                        "not a vendor"
                    },
                    {",\"fallback\":{\"vendor\":\"fcm\",\"token\":7}", "'fallback.token'"}
                }) {
            ParsedRecord r = stream(c[0]);
            assertThat(r.dead).as(c[0]).isNotNull();
            assertThat(r.dead.reason).as(c[0]).contains(c[1]);
            assertThat(Json.write(r.dead)).doesNotContain("secret-hw");
        }
    }

    @Test
    void aReplayIgnoresIt() {
        ParsedRecord r =
                new WireParser(false)
                        .parse(String.format(BIND, ",\"fallback\":\"anything\""), "trace", "1", 1);
        assertThat(r.event).isNotNull();
        assertThat(r.event.fallback).isNull();
    }

    private static ParsedRecord stream(String extra) {
        return new WireParser(true)
                .parse(String.format(BIND, extra), Topics.DEVICE_EVENTS, "p@1", 1);
    }
}
