package io.pushline.dispatch;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.inbox.InboxOp;
import java.util.LinkedHashSet;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Where a request goes once it is due: one record per listed device to the registry, one per listed
 * uid to the uid index, an audience (or a list longer than {@code
 * dispatch.audience.chunk-lists-over}, with a segment store) to the campaign expander; with {@code
 * inbox: true}, the message to each listed uid's inbox and an audience's as one broadcast ({@link
 * DispatchTags#INBOX}; a device's inbox entry comes from the registry, which knows its uid). A
 * target list is de-duplicated here, so each listed uid or device is decided once however often it
 * is listed. Shared by {@link SplitInput} (requests due at once) and {@link Scheduler} (requests
 * released at their {@code at}).
 */
final class Routing {
    static final String NO_SEGMENT_STORE =
            "audience targets need the segment store: start the job with"
                    + " hbase.zookeeper.quorum set";

    /** The side outputs of the calling function's context. */
    interface Sides {
        <X> void output(OutputTag<X> tag, X value);
    }

    private Routing() {}

    /**
     * Routes {@code in}; returns false when it became a dead letter.
     *
     * @param chunkListsOver with {@code campaigns}: a list longer than this goes to the campaign
     *     expander, which emits it in chunks (its inbox entries are still written here)
     */
    static boolean route(
            ParsedRecord in,
            boolean campaigns,
            int chunkListsOver,
            Sides sides,
            Collector<RegistryInput> out) {
        PushRequest p = in.request;
        if (p.target.uids != null && p.toInbox()) {
            // written here whether the list goes in chunks or not: an inbox is not paced
            for (String uid : new LinkedHashSet<>(p.target.uids)) {
                sides.output(DispatchTags.INBOX, InboxOp.add(uid, p.msgId, p.title, p.body, p.ts));
            }
        }
        if (campaigns && listed(p) > chunkListsOver) {
            sides.output(DispatchTags.CAMPAIGNS, in);
        } else if (p.target.uids != null) {
            PushRequest each = p.withoutTarget();
            for (String uid : new LinkedHashSet<>(p.target.uids)) {
                sides.output(DispatchTags.UID_KEYED, UidKeyed.request(uid, each));
            }
        } else if (p.target.devices != null) {
            PushRequest each = p.withoutTarget();
            for (String deviceId : new LinkedHashSet<>(p.target.devices)) {
                out.collect(RegistryInput.of(deviceId, each));
            }
        } else if (campaigns) {
            sides.output(DispatchTags.CAMPAIGNS, in);
            if (p.toInbox()) {
                // stored once with its audience, not copied into every member's inbox
                sides.output(
                        DispatchTags.INBOX,
                        InboxOp.broadcast(p.target, p.msgId, p.title, p.body, p.ts));
            }
        } else {
            sides.output(
                    DispatchTags.DEAD_LETTERS,
                    DeadLetter.of(in.source, in.position, NO_SEGMENT_STORE, Json.write(p)));
            return false;
        }
        return true;
    }

    /** How many uids or devices {@code p} lists; 0 for an audience. */
    private static int listed(PushRequest p) {
        if (p.target.uids != null) {
            return p.target.uids.size();
        }
        return p.target.devices != null ? p.target.devices.size() : 0;
    }
}
