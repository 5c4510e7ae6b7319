package io.pushline.receipts;

import io.pushline.format.ReceiptParser;
import io.pushline.schema.Decision;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.Json;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.receipts.Lifecycle;
import io.pushline.schema.receipts.MetricDelta;
import io.pushline.schema.receipts.ReceiptEvent;
import io.pushline.schema.receipts.ReceiptStateDescriptors;
import io.pushline.schema.receipts.ReceiptTags;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by (msgId, device): merges the gate's decision and the vendor's receipts into the message's
 * {@link Lifecycle}, in whatever order they arrive. Each step counts once ({@link MetricDelta}s
 * out): a repeated receipt or decision changes nothing. Receipts that come before their decision
 * wait for it (they need its msgType) up to {@code decisionWait} of event time, then count as
 * msgType {@code unknown}. Every change leaves as a lifecycle upsert; a {@code token_invalid}
 * leaves at once as an {@code unbind} of the device.
 */
public class LifecycleFunction extends KeyedProcessFunction<String, ReceiptEvent, MetricDelta> {
    private static final long serialVersionUID = 1L;

    /** The msgType of counts whose decision never came. */
    public static final String UNKNOWN = "unknown";

    /** The vendor of decisions without a device. */
    public static final String NO_VENDOR = "none";

    private final Duration stateTtl;
    private final long decisionWaitMs;

    private transient ValueState<Lifecycle> state;
    private transient Counter[] byKind;

    /**
     * Vendor answers by vendor ({@code vendor}: a known vendor's wire name or {@code other}), for a
     * vendor's error rate: {@code vendorReceipts} counts sent, delivered and failed, {@code
     * vendorFailures} failed and token_invalid.
     */
    private transient java.util.Map<String, Counter[]> byVendor;

    private transient MetricGroup metrics;
    private transient Counter duplicates;
    private transient Counter orphans;
    private transient Counter unbinds;
    private transient long failures;

    public LifecycleFunction(Duration stateTtl, Duration decisionWait) {
        this.stateTtl = stateTtl;
        this.decisionWaitMs = decisionWait.toMillis();
    }

    @Override
    public void open(OpenContext context) {
        state = getRuntimeContext().getState(ReceiptStateDescriptors.lifecycle(stateTtl));
        MetricGroup g = getRuntimeContext().getMetricGroup();
        metrics = g;
        byVendor = new java.util.HashMap<>();
        byKind = new Counter[ReceiptEvent.LAST + 1];
        for (byte k = 0; k < byKind.length; k++) {
            byKind[k] = g.addGroup("kind", ReceiptEvent.kindName(k)).counter("events");
        }
        duplicates = g.counter("duplicates");
        orphans = g.counter("orphans");
        unbinds = g.counter("unbinds");
    }

    @Override
    public void processElement(ReceiptEvent e, Context ctx, Collector<MetricDelta> out)
            throws Exception {
        try {
            handle(e, ctx, out);
        } catch (Throwable t) {
            ctx.output(
                    ReceiptTags.DEAD_LETTERS,
                    RecordFailure.deadLetter(
                            "lifecycle",
                            "msgId " + e.msgId + ", deviceId " + e.deviceId,
                            () -> Json.write(e),
                            t,
                            ++failures));
        }
    }

    private void countVendor(ReceiptEvent e) {
        boolean answer =
                e.kind == ReceiptEvent.SENT
                        || e.kind == ReceiptEvent.DELIVERED
                        || e.kind == ReceiptEvent.FAILED
                        || e.kind == ReceiptEvent.TOKEN_INVALID;
        if (!answer) {
            return;
        }
        // a bounded label: free text in a receipt cannot grow the series without end
        String vendor =
                e.vendor != null && io.pushline.schema.Vendor.fromWire(e.vendor) != null
                        ? e.vendor
                        : "other";
        Counter[] c =
                byVendor.computeIfAbsent(
                        vendor,
                        v -> {
                            MetricGroup g = metrics.addGroup("vendor", v);
                            return new Counter[] {
                                g.counter("vendorReceipts"), g.counter("vendorFailures")
                            };
                        });
        c[0].inc();
        if (e.kind == ReceiptEvent.FAILED || e.kind == ReceiptEvent.TOKEN_INVALID) {
            c[1].inc();
        }
    }

    private void handle(ReceiptEvent e, Context ctx, Collector<MetricDelta> out) throws Exception {
        Lifecycle l = state.value();
        if (l == null) {
            l = new Lifecycle();
            l.msgId = e.msgId;
            l.deviceId = e.deviceId;
        }
        byKind[e.kind].inc();
        countVendor(e);
        if (e.uid != null && l.uid == null) {
            l.uid = e.uid;
        }
        if (l.vendor == null && e.vendor != null && e.kind != ReceiptEvent.INBOX_READ) {
            l.vendor = e.vendor;
        }
        boolean changed =
                e.kind == ReceiptEvent.DECISION ? decision(l, e, out) : receipt(l, e, ctx, out);
        if (!changed) {
            duplicates.inc();
            return;
        }
        state.update(l);
        ctx.output(ReceiptTags.LIFECYCLE, l.copy());
    }

    private boolean decision(Lifecycle l, ReceiptEvent e, Collector<MetricDelta> out) {
        if (e.decision.equals(l.decision) && e.code == l.code) {
            return false;
        }
        boolean first = l.msgType == null;
        l.decision = e.decision;
        l.reason = e.reason;
        l.code = e.code;
        l.msgType = e.msgType;
        if (e.vendor != null) {
            l.vendor = e.vendor;
        }
        if (l.decidedAt == Lifecycle.NONE) {
            l.decidedAt = e.ts;
        }
        boolean pass = Decision.PASS.equals(e.decision);
        out.collect(
                MetricDelta.of(
                        e.ts,
                        l.msgId,
                        l.msgType,
                        vendorOf(l),
                        pass ? MetricDelta.PASSED : MetricDelta.DROPPED,
                        pass ? null : e.reason));
        if (first && l.pending != 0) {
            flushPending(l, out);
        }
        return true;
    }

    private boolean receipt(Lifecycle l, ReceiptEvent e, Context ctx, Collector<MetricDelta> out) {
        switch (e.kind) {
            case ReceiptEvent.SENT:
                if (l.sentAt != Lifecycle.NONE) {
                    return false;
                }
                l.sentAt = e.ts;
                break;
            case ReceiptEvent.DELIVERED:
                if (l.deliveredAt != Lifecycle.NONE) {
                    return false;
                }
                l.deliveredAt = e.ts;
                break;
            case ReceiptEvent.CLICKED:
                if (l.clickedAt != Lifecycle.NONE) {
                    return false;
                }
                l.clickedAt = e.ts;
                break;
            case ReceiptEvent.FAILED:
                if (l.failedAt != Lifecycle.NONE) {
                    return false;
                }
                l.failedAt = e.ts;
                l.failCode = e.reason;
                break;
            case ReceiptEvent.INBOX_READ:
                if (l.inboxReadAt != Lifecycle.NONE) {
                    return false;
                }
                l.inboxReadAt = e.ts;
                // a read needs no decision: the inbox got the message whatever the gate said
                out.collect(delta(l, e.kind));
                return true;
            case ReceiptEvent.LC_RETRY:
                if (e.attempt <= l.lcRetries) {
                    return false;
                }
                if (e.attempt <= Lifecycle.MAX_RETRY_TIMES) {
                    long[] at = l.lcRetryAt == null ? new long[0] : l.lcRetryAt;
                    at = java.util.Arrays.copyOf(at, Math.max(at.length, e.attempt));
                    at[e.attempt - 1] = e.ts;
                    l.lcRetryAt = at;
                }
                l.lcRetries = e.attempt;
                break;
            case ReceiptEvent.LC_ACKED:
                if (l.lcAckedAt != Lifecycle.NONE) {
                    return false;
                }
                l.lcAckedAt = e.ts;
                l.lcCompensationMs = e.attempt > 0 ? Math.max(0, e.delayMs) : -1;
                break;
            case ReceiptEvent.LC_FALLBACK:
                if (l.lcFallbackAt != Lifecycle.NONE) {
                    return false;
                }
                l.lcFallbackAt = e.ts;
                l.lcFallbackVendor = e.fallbackVendor;
                break;
            case ReceiptEvent.LC_GIVE_UP:
                if (l.lcGiveUpAt != Lifecycle.NONE) {
                    return false;
                }
                l.lcGiveUpAt = e.ts;
                break;
            case ReceiptEvent.TOKEN_INVALID:
                if (l.tokenInvalidAt != Lifecycle.NONE) {
                    return false;
                }
                l.tokenInvalidAt = e.ts;
                if (!l.deviceId.startsWith("uid:")) {
                    ctx.output(ReceiptTags.UNBIND, DeviceEvent.unbind(e.ts, l.deviceId, e.token));
                    unbinds.inc();
                }
                break;
            default:
                throw new IllegalArgumentException("not a receipt: " + e.kind);
        }
        if (l.msgType != null) {
            emit(l, e.kind, out);
        } else {
            if (l.pending == 0) {
                ctx.timerService().registerEventTimeTimer(e.ts + decisionWaitMs);
            }
            l.pending |= 1 << e.kind;
        }
        return true;
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<MetricDelta> out)
            throws Exception {
        Lifecycle l = state.value();
        if (l == null || l.pending == 0 || l.msgType != null) {
            return;
        }
        // The decision never came (or was lost upstream): count what the vendor said anyway.
        orphans.inc();
        flushPending(l, out);
        state.update(l);
    }

    private void flushPending(Lifecycle l, Collector<MetricDelta> out) {
        for (byte k = ReceiptEvent.SENT; k <= ReceiptEvent.LAST; k++) {
            if ((l.pending & (1 << k)) != 0) {
                emit(l, k, out);
            }
        }
        l.pending = 0;
    }

    /** The counts of a receipt of kind {@code kind}: one, or one per retry not yet counted. */
    private static void emit(Lifecycle l, byte kind, Collector<MetricDelta> out) {
        if (kind != ReceiptEvent.LC_RETRY) {
            out.collect(delta(l, kind));
            return;
        }
        for (int k = l.lcRetriesCounted + 1; k <= l.lcRetries; k++) {
            long at =
                    l.lcRetryAt != null && k <= l.lcRetryAt.length && l.lcRetryAt[k - 1] != 0
                            ? l.lcRetryAt[k - 1]
                            : lastRetryAt(l);
            out.collect(
                    MetricDelta.of(
                            at,
                            l.msgId,
                            l.msgType != null ? l.msgType : UNKNOWN,
                            vendorOf(l),
                            MetricDelta.LC_RETRY,
                            null));
        }
        l.lcRetriesCounted = l.lcRetries;
    }

    private static long lastRetryAt(Lifecycle l) {
        long last = Lifecycle.NONE;
        if (l.lcRetryAt != null) {
            for (long t : l.lcRetryAt) {
                last = Math.max(last, t);
            }
        }
        return last == Lifecycle.NONE ? l.decidedAt : last;
    }

    private static MetricDelta delta(Lifecycle l, byte kind) {
        String msgType = l.msgType != null ? l.msgType : UNKNOWN;
        String vendor = vendorOf(l);
        switch (kind) {
            case ReceiptEvent.SENT:
                return MetricDelta.of(l.sentAt, l.msgId, msgType, vendor, MetricDelta.SENT, null);
            case ReceiptEvent.DELIVERED:
                MetricDelta d =
                        MetricDelta.of(
                                l.deliveredAt,
                                l.msgId,
                                msgType,
                                vendor,
                                MetricDelta.DELIVERED,
                                null);
                if (l.decidedAt != Lifecycle.NONE) {
                    d.latencyMs = Math.max(0, l.deliveredAt - l.decidedAt);
                }
                return d;
            case ReceiptEvent.CLICKED:
                return MetricDelta.of(
                        l.clickedAt, l.msgId, msgType, vendor, MetricDelta.CLICKED, null);
            case ReceiptEvent.FAILED:
                return MetricDelta.of(
                        l.failedAt, l.msgId, msgType, vendor, MetricDelta.FAILED, l.failCode);
            case ReceiptEvent.INBOX_READ:
                return MetricDelta.of(
                        l.inboxReadAt,
                        l.msgId,
                        msgType,
                        ReceiptParser.INBOX,
                        MetricDelta.INBOX_READ,
                        null);
            case ReceiptEvent.LC_ACKED:
                MetricDelta a =
                        MetricDelta.of(
                                l.lcAckedAt, l.msgId, msgType, vendor, MetricDelta.LC_ACKED, null);
                a.latencyMs = l.lcCompensationMs;
                return a;
            case ReceiptEvent.LC_FALLBACK:
                return MetricDelta.of(
                        l.lcFallbackAt,
                        l.msgId,
                        msgType,
                        vendor,
                        MetricDelta.LC_FALLBACK,
                        l.lcFallbackVendor == null ? "undeliverable" : l.lcFallbackVendor);
            case ReceiptEvent.LC_GIVE_UP:
                return MetricDelta.of(
                        l.lcGiveUpAt, l.msgId, msgType, vendor, MetricDelta.LC_GIVE_UP, null);
            case ReceiptEvent.TOKEN_INVALID:
                return MetricDelta.of(
                        l.tokenInvalidAt,
                        l.msgId,
                        msgType,
                        vendor,
                        MetricDelta.TOKEN_INVALID,
                        null);
            default:
                throw new IllegalArgumentException("not a receipt: " + kind);
        }
    }

    private static String vendorOf(Lifecycle l) {
        return l.vendor != null ? l.vendor : NO_VENDOR;
    }
}
