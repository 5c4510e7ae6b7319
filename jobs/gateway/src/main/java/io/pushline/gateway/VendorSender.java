package io.pushline.gateway;

import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.gateway.GatewayReceipt;
import io.pushline.schema.gateway.SendBatch;
import io.pushline.vendors.Answer;
import io.pushline.vendors.VendorClient;
import io.pushline.vendors.VendorClients;
import io.pushline.vendors.VendorSettings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls one vendor for each batch (Flink async I/O: the call is in the checkpoint while in flight,
 * and made again after a restore), retries what the vendor could not take (5xx and timeouts after a
 * doubling backoff, throttles after the vendor's Retry-After) up to {@code retries} times, and
 * answers each send with a receipt; a throttle also yields one {@code throttled} report for the
 * pacer, and the first success after it a {@code recovered}. Never fails the job: an exception or
 * the operator's timeout is a {@code failed} receipt.
 */
public class VendorSender extends RichAsyncFunction<SendBatch, GatewayReceipt>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(VendorSender.class);

    /** Answers read back after a restore at most (a few minutes of a busy vendor). */
    static final int MAX_REPLAYED = 2_000_000;

    /** How far before the checkpoint's time the log is read: clocks of brokers and TMs differ. */
    static final long LOG_MARGIN_MS = 5_000;

    private final VendorSettings settings;
    private final int retries;
    private final long backoffMs;
    private final int connections;

    /** The answer log's Kafka client settings; null: no log. */
    private final Properties answeredLog;

    private transient AnsweredLog log;
    private transient ListState<Long> checkpointTimes;
    private transient long restoredFrom;
    private transient Map<String, GatewayReceipt> replay;
    private transient Counter fromLog;
    private transient volatile boolean closing;

    /** The code of a failed receipt the gateway made itself, no vendor's answer. */
    static final String GATEWAY_ERROR = "gateway error ";

    private transient VendorClient client;
    private transient ScheduledExecutorService timers;
    private transient boolean throttled;
    private transient List<GatewayReceipt> reports;
    private transient Counter sent;
    private transient Counter failed;
    private transient Counter tokenInvalid;
    private transient Counter throttles;
    private transient Counter retried;
    private final java.util.concurrent.atomic.AtomicLong inFlight =
            new java.util.concurrent.atomic.AtomicLong();

    public VendorSender(VendorSettings settings, int retries, long backoffMs, int connections) {
        this(settings, retries, backoffMs, connections, null);
    }

    /** With the answer log ({@link AnsweredLog}) on Kafka of {@code answeredLog}'s settings. */
    public VendorSender(
            VendorSettings settings,
            int retries,
            long backoffMs,
            int connections,
            Properties answeredLog) {
        this.answeredLog = answeredLog;
        this.settings = settings;
        this.retries = retries;
        this.backoffMs = backoffMs;
        this.connections = connections;
    }

    @Override
    public void initializeState(FunctionInitializationContext ctx) throws Exception {
        // union: every subtask learns the oldest checkpoint time, whatever the new parallelism
        checkpointTimes =
                ctx.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>(
                                        "answered-log-since", LongSerializer.INSTANCE));
        restoredFrom = 0;
        if (ctx.isRestored()) {
            for (Long t : checkpointTimes.get()) {
                restoredFrom = restoredFrom == 0 ? t : Math.min(restoredFrom, t);
            }
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext ctx) throws Exception {
        checkpointTimes.update(List.of(System.currentTimeMillis()));
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        if (answeredLog != null) {
            log = new AnsweredLog(answeredLog, Topics.GATEWAY_ANSWERED);
            if (restoredFrom > 0) {
                long t0 = System.currentTimeMillis();
                replay =
                        AnsweredLog.since(
                                answeredLog,
                                Topics.GATEWAY_ANSWERED,
                                settings.vendor().wireName(),
                                restoredFrom - LOG_MARGIN_MS,
                                MAX_REPLAYED);
                LOG.info(
                        "{}: {} answers logged since the checkpoint of {} read in {} ms; those sends"
                                + " are answered from the log, not sent again",
                        settings.vendor().wireName(),
                        replay.size(),
                        restoredFrom,
                        System.currentTimeMillis() - t0);
                if (replay.isEmpty()) {
                    replay = null;
                }
            }
        }
        client = VendorClients.of(settings, connections);
        reports = new ArrayList<>();
        timers =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t =
                                    new Thread(
                                            r,
                                            "pushline-"
                                                    + settings.vendor().wireName()
                                                    + "-retries");
                            t.setDaemon(true);
                            return t;
                        });
        MetricGroup g =
                getRuntimeContext()
                        .getMetricGroup()
                        .addGroup("vendor", settings.vendor().wireName());
        sent = g.counter("sent");
        failed = g.counter("failed");
        tokenInvalid = g.counter("tokenInvalid");
        throttles = g.counter("throttled");
        retried = g.counter("retries");
        fromLog = g.counter("answeredFromLog");
        // sends taken and not yet answered: what a restore may send again
        g.gauge("inFlightSends", () -> Math.max(0, inFlight.get()));
    }

    @Override
    public void asyncInvoke(SendBatch batch, ResultFuture<GatewayReceipt> result) {
        inFlight.addAndGet(batch.sends.length);
        List<GatewayReceipt> out = new ArrayList<>(batch.sends.length + 1);
        long now = System.currentTimeMillis();
        List<SendRecord> live = new ArrayList<>(batch.sends.length);
        for (SendRecord s : batch.sends) {
            GatewayReceipt logged = replayed(s);
            if (logged != null) {
                out.add(logged);
            } else if (s.deadline != null && s.deadline < now) {
                out.add(receipt(s, GatewayReceipt.FAILED, "expired"));
            } else {
                live.add(s);
            }
        }
        if (live.isEmpty()) {
            complete(out, result);
            return;
        }
        call(live, 1, out, result, now);
    }

    /** The logged answer of a send answered before the restore, once; null otherwise. */
    private GatewayReceipt replayed(SendRecord s) {
        Map<String, GatewayReceipt> r = replay;
        if (r == null) {
            return null;
        }
        GatewayReceipt g;
        synchronized (r) {
            g = r.remove(AnsweredLog.key(s.msgId, s.deviceId));
            if (r.isEmpty()) {
                replay = null;
            }
        }
        if (g != null) {
            fromLog.inc();
            g.ts = System.currentTimeMillis();
        }
        return g;
    }

    private void call(
            List<SendRecord> sends,
            int attempt,
            List<GatewayReceipt> out,
            ResultFuture<GatewayReceipt> result,
            long started) {
        CompletableFuture<List<Answer>> f;
        try {
            f = client.send(sends);
        } catch (Throwable t) {
            f = CompletableFuture.failedFuture(t);
        }
        // a client that never answers (an HTTP/2 stream lost) must not hold the send until the
        // operator's timeout: past the vendor's timeout it is unavailable, and retried
        f.orTimeout(settings.timeoutMs() + 1_000, TimeUnit.MILLISECONDS)
                .whenComplete(
                        (answers, e) -> {
                            try {
                                List<Answer> a =
                                        e != null
                                                ? java.util.Collections.nCopies(
                                                        sends.size(),
                                                        Answer.unavailable(
                                                                rootCause(e)
                                                                        .getClass()
                                                                        .getSimpleName()))
                                                : answers;
                                answered(sends, a, attempt, out, result, started);
                            } catch (Throwable t) {
                                for (SendRecord s : sends) {
                                    out.add(
                                            receipt(
                                                    s,
                                                    GatewayReceipt.FAILED,
                                                    GATEWAY_ERROR + t.getClass().getSimpleName()));
                                }
                                complete(out, result);
                            }
                        });
    }

    private static Throwable rootCause(Throwable e) {
        return e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                ? e.getCause()
                : e;
    }

    /**
     * Completes a batch with the pacer's reports made since the last completion: a report leaves
     * with whichever batch completes next, so a throttle is reported as soon as any call returns
     * and not only when the throttled call has waited out its retries, and the reports of one
     * subtask stay in the order they were made (unordered async I/O emits in completion order).
     */
    private void complete(List<GatewayReceipt> out, ResultFuture<GatewayReceipt> result) {
        inFlight.addAndGet(-out.size());
        if (log != null && !closing) {
            // a failure of the gateway's own (its shutdown, an error of its code) is not an
            // answer: after a restore the send is tried again rather than failed from the log
            List<GatewayReceipt> answers = new ArrayList<>(out.size());
            for (GatewayReceipt r : out) {
                if (r.code == null || !r.code.startsWith(GATEWAY_ERROR)) {
                    answers.add(r);
                }
            }
            log.write(settings.vendor().wireName(), answers);
        }
        synchronized (reports) {
            out.addAll(reports);
            reports.clear();
            result.complete(out);
        }
    }

    private void answered(
            List<SendRecord> sends,
            List<Answer> answers,
            int attempt,
            List<GatewayReceipt> out,
            ResultFuture<GatewayReceipt> result,
            long started) {
        List<SendRecord> again = new ArrayList<>();
        long wait = 0;
        String throttleCode = null;
        long retryAfter = 0;
        for (int i = 0; i < sends.size(); i++) {
            SendRecord s = sends.get(i);
            Answer a = answers.get(i);
            switch (a.outcome()) {
                case SENT:
                    sent.inc();
                    out.add(receipt(s, GatewayReceipt.SENT, null));
                    break;
                case TOKEN_INVALID:
                    tokenInvalid.inc();
                    GatewayReceipt r = receipt(s, GatewayReceipt.TOKEN_INVALID, null);
                    r.token = s.token;
                    out.add(r);
                    break;
                case FAILED:
                    failed.inc();
                    out.add(receipt(s, GatewayReceipt.FAILED, a.code()));
                    break;
                default:
                    if (a.outcome() == Answer.Outcome.THROTTLED) {
                        throttleCode = a.code();
                        // up to half again, so the throttled calls of a burst do not all
                        // come back in the same millisecond
                        long after = a.retryAfterMs();
                        retryAfter = Math.max(retryAfter, after);
                        wait =
                                Math.max(
                                        wait,
                                        after
                                                + ThreadLocalRandom.current()
                                                        .nextLong(after / 2 + 1));
                    } else {
                        wait = Math.max(wait, backoff(attempt));
                    }
                    if (attempt <= retries) {
                        again.add(s);
                    } else {
                        failed.inc();
                        out.add(receipt(s, GatewayReceipt.FAILED, a.code()));
                    }
            }
        }
        long took = System.currentTimeMillis() - started;
        for (int i = out.size() - (sends.size() - again.size()); i < out.size(); i++) {
            out.get(i).latencyMs = took;
        }
        synchronized (reports) {
            if (throttleCode != null) {
                throttles.inc();
                if (!throttled) {
                    throttled = true;
                    reports.add(feedback(GatewayReceipt.THROTTLED, throttleCode, retryAfter));
                }
            } else if (throttled && again.size() < sends.size()) {
                throttled = false;
                reports.add(feedback(GatewayReceipt.RECOVERED, null, 0));
            }
        }
        if (again.isEmpty()) {
            complete(out, result);
            return;
        }
        retried.inc(again.size());
        timers.schedule(
                () -> call(again, attempt + 1, out, result, started), wait, TimeUnit.MILLISECONDS);
    }

    private long backoff(int attempt) {
        long b = backoffMs << Math.min(attempt - 1, 10);
        return b / 2 + ThreadLocalRandom.current().nextLong(b / 2 + 1);
    }

    private GatewayReceipt receipt(SendRecord s, String type, String code) {
        GatewayReceipt r = new GatewayReceipt();
        r.type = type;
        r.msgId = s.msgId;
        r.deviceId = s.deviceId;
        r.vendor = settings.vendor().wireName();
        r.ts = System.currentTimeMillis();
        r.code = code;
        return r;
    }

    private GatewayReceipt feedback(String type, String code, long retryAfterMs) {
        GatewayReceipt r = new GatewayReceipt();
        r.type = type;
        r.vendor = settings.vendor().wireName();
        r.ts = System.currentTimeMillis();
        r.code = code;
        r.retryAfterMs = retryAfterMs;
        return r;
    }

    @Override
    public void timeout(SendBatch batch, ResultFuture<GatewayReceipt> result) {
        List<GatewayReceipt> out = new ArrayList<>();
        Arrays.stream(batch.sends)
                .forEach(s -> out.add(receipt(s, GatewayReceipt.FAILED, "timeout")));
        failed.inc(out.size());
        complete(out, result);
    }

    @Override
    public void close() throws Exception {
        closing = true;
        if (timers != null) {
            timers.shutdownNow();
        }
        if (client != null) {
            client.close();
        }
        if (log != null) {
            log.close();
        }
    }
}
