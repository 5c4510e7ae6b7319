package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A record of {@code push.requests}: exactly a {@code push} line of the dispatch trace.
 *
 * <p>{@code seq} is not on the wire: it orders records with equal {@code ts} (line number in a
 * trace, position in the topic on Kafka).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
    "ts",
    "type",
    "msgId",
    "msgType",
    "level",
    "title",
    "body",
    "target",
    "deadline",
    "maxRate",
    "at",
    "inbox"
})
public class PushRequest {
    public static final String TYPE = "push";

    public long ts;
    public String type = TYPE;
    public String msgId;
    public String msgType;
    public Integer level;
    public String title;
    public String body;
    public Target target;

    /** Optional: epoch ms after which a send still waiting for its vendor is dropped (expired). */
    public Long deadline;

    /** Optional, for audience targets: at most this many of the audience per second. */
    public Integer maxRate;

    /**
     * Optional: epoch ms before which the request is not decided. It waits in the dispatch job's
     * {@code scheduler} (event-time timers) and is then decided at {@code at} like any request.
     */
    public Long at;

    /**
     * Optional: true puts the message into the inbox of every target uid, whatever the gate says.
     */
    public Boolean inbox;

    @JsonIgnore public long seq;

    public PushRequest() {}

    /**
     * This request without its target: what travels with each resolved uid or device. A campaign to
     * 10,000 uids must not carry the 10,000-entry list 10,000 times through state.
     */
    public PushRequest withoutTarget() {
        PushRequest p = new PushRequest();
        p.ts = ts;
        p.type = type;
        p.msgId = msgId;
        p.msgType = msgType;
        p.level = level;
        p.title = title;
        p.body = body;
        p.deadline = deadline;
        p.maxRate = maxRate;
        p.at = at;
        p.inbox = inbox;
        p.seq = seq;
        return p;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PushRequest)) {
            return false;
        }
        PushRequest p = (PushRequest) o;
        return ts == p.ts
                && seq == p.seq
                && Objects.equals(msgId, p.msgId)
                && Objects.equals(msgType, p.msgType)
                && Objects.equals(level, p.level)
                && Objects.equals(title, p.title)
                && Objects.equals(body, p.body)
                && Objects.equals(target, p.target)
                && Objects.equals(deadline, p.deadline)
                && Objects.equals(maxRate, p.maxRate)
                && Objects.equals(at, p.at)
                && Objects.equals(inbox, p.inbox);
    }

    /** Whether the message goes into the targets' inboxes. */
    public boolean toInbox() {
        return Boolean.TRUE.equals(inbox);
    }

    @Override
    public int hashCode() {
        return Objects.hash(ts, msgId, seq);
    }

    @Override
    public String toString() {
        return "PushRequest{" + msgId + "@" + ts + "#" + seq + "}";
    }
}
