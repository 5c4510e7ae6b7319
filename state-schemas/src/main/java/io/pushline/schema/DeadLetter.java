package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A record of {@code push.dlq}: input that could not be used, with where it came from and why. The
 * raw text is kept whole so it can be fixed and sent again.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"source", "position", "reason", "raw"})
public class DeadLetter {
    /** Topic name, or {@code trace} for a replayed file. */
    public String source;

    /** Where in the source: {@code partition-offset} on Kafka, the line number in a trace. */
    public String position;

    public String reason;
    public String raw;

    public DeadLetter() {}

    public static DeadLetter of(String source, String position, String reason, String raw) {
        DeadLetter d = new DeadLetter();
        d.source = source;
        d.position = position;
        d.reason = reason;
        d.raw = raw;
        return d;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DeadLetter)) {
            return false;
        }
        DeadLetter d = (DeadLetter) o;
        return Objects.equals(source, d.source)
                && Objects.equals(position, d.position)
                && Objects.equals(reason, d.reason)
                && Objects.equals(raw, d.raw);
    }

    @Override
    public int hashCode() {
        return Objects.hash(source, position, reason);
    }

    @Override
    public String toString() {
        return Json.write(this);
    }
}
