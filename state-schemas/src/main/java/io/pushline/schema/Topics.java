package io.pushline.schema;

import java.util.ArrayList;
import java.util.List;

/** Names of the public Kafka topics. Each carries JSON with one schema, see README.md. */
public final class Topics {
    public static final String PUSH_REQUESTS = "push.requests";
    public static final String DEVICE_EVENTS = "device.events";
    public static final String DECISIONS = "push.decisions";
    public static final String DLQ = "push.dlq";
    public static final String RULES = "push.rules";
    public static final String VENDOR_PREFIX = "push.vendor.";

    /** Every vendor topic, as a regular expression. */
    public static final String VENDOR_TOPICS = "push\\.vendor\\..+";

    /**
     * Vendor gateways' throttling and recovery reports (VendorFeedback JSON), read by the pacer.
     */
    public static final String VENDOR_FEEDBACK = "vendor.feedback";

    /** The pacer's per-vendor backlog reports (PacingStatus JSON), read by campaign expansion. */
    public static final String PACING_STATUS = "push.pacing";

    /** Vendor gateways' callbacks (sent, delivered, clicked, failed, token_invalid). */
    public static final String RECEIPTS = "push.receipts";

    /**
     * The gateway's log of vendor answers, written as they come (at least once, not transactional):
     * after a restore it answers the sends answered since the checkpoint, so they are not sent
     * again. Only the gateway writes and reads it; it holds tokens of token_invalid answers.
     */
    public static final String GATEWAY_ANSWERED = "gateway.answered";

    /** The receipts job's metric rows (MetricRow JSON, upserts keyed by period and campaign). */
    public static final String METRICS = "push.metrics";

    /** Membership changes read by the segment build (SegmentChange JSON, keyed by segment). */
    public static final String SEGMENT_CHANGES = "segment.changes";

    /** Reminder tasks: create, update, cancel (ReminderEvent JSON, keyed by taskId). */
    public static final String REMINDER_TASKS = "reminder.tasks";

    /** Users' reminder subscriptions: subscribe, unsubscribe, pull (keyed by taskId). */
    public static final String REMINDER_SUBSCRIPTIONS = "reminder.subscriptions";

    /** Reminder events the contract refuses, with the reason, for the business to see. */
    public static final String REMINDER_REJECTED = "reminder.rejected";

    /** Reads of inbox messages: {@code read} by msgIds or all (keyed by uid). */
    public static final String INBOX_EVENTS = "inbox.events";

    /**
     * Inbox rows written by the dispatch job: {@code {"ts","uid"}} (keyed by uid), for servers that
     * cache inbox rows.
     */
    public static final String INBOX_CHANGES = "inbox.changes";

    /** Long-connection clients' acks: {@code {"ts","msgId","deviceId"}} (keyed by deviceId). */
    public static final String LONGCONN_ACKS = "longconn.acks";

    /**
     * Long-connection presence: {@code {"ts","type":"presence","deviceId","online","appVersion"}}
     * (keyed by deviceId).
     */
    public static final String LONGCONN_PRESENCE = "longconn.presence";

    private Topics() {}

    public static String vendorTopic(String vendorWireName) {
        return VENDOR_PREFIX + vendorWireName;
    }

    /** Every topic the dispatch job reads or writes. */
    public static List<String> dispatchTopics() {
        List<String> all =
                new ArrayList<>(
                        List.of(
                                PUSH_REQUESTS,
                                DEVICE_EVENTS,
                                RULES,
                                VENDOR_FEEDBACK,
                                PACING_STATUS,
                                DECISIONS,
                                DLQ,
                                REMINDER_TASKS,
                                REMINDER_SUBSCRIPTIONS,
                                REMINDER_REJECTED,
                                INBOX_EVENTS,
                                INBOX_CHANGES));
        for (Vendor v : Vendor.values()) {
            all.add(v.topic());
        }
        return all;
    }

    /** Every topic of Pushline's jobs. */
    public static List<String> all() {
        List<String> all = dispatchTopics();
        all.add(SEGMENT_CHANGES);
        all.add(RECEIPTS);
        all.add(GATEWAY_ANSWERED);
        all.add(METRICS);
        all.add(LONGCONN_ACKS);
        all.add(LONGCONN_PRESENCE);
        return all;
    }
}
