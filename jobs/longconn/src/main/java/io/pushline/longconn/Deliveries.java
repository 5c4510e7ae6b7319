package io.pushline.longconn;

import io.pushline.schema.Decision;
import io.pushline.schema.DropReason;
import io.pushline.schema.PushRequest;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Vendor;
import io.pushline.schema.longconn.LongconnAction;
import io.pushline.schema.longconn.LongconnReceipt;
import io.pushline.schema.longconn.LongconnTags;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Turns the tracker's actions into what leaves the job: a retry is the send again on {@code
 * push.vendor.longconn} with its attempt number; a fallback is the send on the device's vendor
 * channel with that token, or, for a device without one, a DROP {@code undeliverable} decision;
 * acks, retries, fallbacks and give-ups also go to the receipts job ({@link LongconnTags}).
 */
public class Deliveries extends ProcessFunction<LongconnAction, SendRecord> {
    private static final long serialVersionUID = 1L;

    private transient Counter undeliverable;

    @Override
    public void open(org.apache.flink.api.common.functions.OpenContext ctx) {
        undeliverable =
                getRuntimeContext().getMetricGroup().addGroup("longconn").counter("undeliverable");
    }

    @Override
    public void processElement(LongconnAction a, Context ctx, Collector<SendRecord> out) {
        boolean resent =
                LongconnAction.RETRY.equals(a.action) || LongconnAction.FALLBACK.equals(a.action);
        // only what is sent again needs the whole send; an ack needs its uid
        SendRecord send = resent && a.send != null ? a.send.decode() : null;
        LongconnReceipt receipt = receipt(a, send);
        if (receipt != null) {
            ctx.output(LongconnTags.RECEIPTS, receipt);
        }
        if (send == null) {
            return;
        }
        if (LongconnAction.RETRY.equals(a.action)) {
            out.collect(resend(send, a.attempt));
        } else if (send.fallback != null) {
            out.collect(fallback(send, a.attempt));
        } else {
            undeliverable.inc();
            ctx.output(LongconnTags.UNDELIVERABLE, undeliverable(send));
        }
    }

    /** The send again over the long connection, with the retry's number. */
    static SendRecord resend(SendRecord send, int attempt) {
        SendRecord r = send.copy();
        r.attempt = attempt;
        return r;
    }

    /** The send on the device's vendor channel (its fallback stays off that vendor's topic). */
    static SendRecord fallback(SendRecord send, int attempt) {
        SendRecord r = send.copy();
        r.vendor = send.fallback.vendor;
        r.token = send.fallback.token;
        r.fallback = null;
        r.attempt = attempt;
        return r;
    }

    static Decision undeliverable(SendRecord send) {
        PushRequest p = new PushRequest();
        p.msgId = send.msgId;
        p.msgType = send.msgType;
        p.ts = send.ts;
        Decision d = Decision.drop(p, send.uid, send.deviceId, DropReason.UNDELIVERABLE);
        d.vendor = Vendor.LONGCONN.wireName();
        return d;
    }

    /** The receipt of {@code a}; {@code send} is its decoded send, or null when not decoded. */
    static LongconnReceipt receipt(LongconnAction a, SendRecord send) {
        String type =
                switch (a.action) {
                    case LongconnAction.ACKED -> LongconnReceipt.ACKED;
                    case LongconnAction.RETRY -> LongconnReceipt.RETRY;
                    case LongconnAction.FALLBACK -> LongconnReceipt.FALLBACK;
                    case LongconnAction.GIVE_UP -> LongconnReceipt.GIVE_UP;
                    default -> null;
                };
        if (type == null) {
            return null;
        }
        LongconnReceipt r = new LongconnReceipt();
        r.ts = a.ts;
        r.type = type;
        r.msgId = a.msgId;
        r.deviceId = a.deviceId;
        r.attempt = a.attempt;
        r.delayMs = a.delayMs;
        if (send != null) {
            r.uid = send.uid;
            if (LongconnAction.FALLBACK.equals(a.action) && send.fallback != null) {
                r.fallbackVendor = send.fallback.vendor;
            }
        } else if (a.send != null) {
            r.uid = a.send.uid();
        }
        return r;
    }
}
