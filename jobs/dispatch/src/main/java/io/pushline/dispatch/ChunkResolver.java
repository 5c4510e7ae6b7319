package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import java.util.ArrayDeque;
import java.util.ArrayList;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.YieldingOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Maps a chunk of a campaign's dense ids back to uids (one batched dictionary read per chunk) and
 * hands each uid to the uid index like any uid-targeted request. A slice of a long list needs no
 * dictionary: its uids go to the uid index as they are, its devices to the registry ({@link
 * DispatchTags#LISTED_DEVICES}). Runs at full parallelism: chunks arrive round-robin, so a large
 * campaign's lookups are spread over all subtasks.
 *
 * <p>Never blocks on the dictionary: when HBase fails, the chunk (and every later one, in order)
 * waits in checkpointed state and is tried again after a backoff (0.1 s doubling to 30 s), while
 * watermarks pass on, so realtime pushes downstream keep flowing. A chunk resolved late is decided
 * at the next watermark, like any late record.
 *
 * <p>What waits is bounded: past {@link #MAX_WAITING} chunks the resolver takes no more input
 * (backpressure on the expander) and only retries, yielding to its timers and other mail, until the
 * dictionary answers. Past that point realtime pushes wait too, but the heap does not grow.
 */
public class ChunkResolver extends AbstractStreamOperator<UidKeyed>
        implements OneInputStreamOperator<AudienceChunk, UidKeyed>,
                BoundedOneInput,
                YieldingOperator<UidKeyed> {
    private static final long serialVersionUID = 1L;
    static final long RETRY_FIRST_MS = 100;
    static final long RETRY_MAX_MS = 30_000;

    /** Chunks that may wait on the heap for the dictionary (1,000 of 5,000 ids: 20 MB). */
    static final int MAX_WAITING = 1_000;

    private transient MailboxExecutor mailbox;

    private final Audiences.Factory factory;
    private transient Audiences audiences;
    private transient Counter resolved;
    private transient Counter unassigned;
    private transient Counter failures;
    private transient ArrayDeque<AudienceChunk> waiting;
    private transient ListState<AudienceChunk> waitingState;
    private transient Backoff backoff;

    public ChunkResolver(Audiences.Factory factory) {
        this.factory = factory;
    }

    @Override
    public void initializeState(StateInitializationContext ctx) throws Exception {
        super.initializeState(ctx);
        waiting = new ArrayDeque<>();
        waitingState =
                ctx.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "chunks-waiting-for-dictionary",
                                        TypeInformation.of(AudienceChunk.class)));
        for (AudienceChunk c : waitingState.get()) {
            waiting.add(c);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        audiences = factory.open();
        resolved = getMetricGroup().counter("audienceUids");
        // Ids a writer claimed but lost in a race have no uid: part of the universe, nobody's.
        unassigned = getMetricGroup().counter("audienceIdsWithoutUid");
        failures = getMetricGroup().counter("dictionaryFailures");
        getMetricGroup().gauge("chunksWaitingForDictionary", () -> waiting.size());
        backoff = new Backoff(RETRY_FIRST_MS, RETRY_MAX_MS);
        if (!waiting.isEmpty()) {
            scheduleRetry();
        }
    }

    @Override
    public void setMailboxExecutor(MailboxExecutor mailbox) {
        this.mailbox = mailbox;
    }

    @Override
    public void processElement(StreamRecord<AudienceChunk> element) throws Exception {
        AudienceChunk chunk = element.getValue();
        if (!waiting.isEmpty() || !resolve(chunk)) {
            waiting.add(chunk);
            scheduleRetry();
        }
        while (waiting.size() >= MAX_WAITING && mailbox != null) {
            mailbox.yield(); // the retry timer is mail: it runs here, nothing else is read
        }
    }

    /** Emits the uids of {@code chunk}; false when the dictionary failed (rethrown if not that). */
    private boolean resolve(AudienceChunk chunk) throws Exception {
        if (chunk.devices != null) {
            StreamRecord<RegistryInput> out = new StreamRecord<>(null, chunk.request.ts);
            for (String device : chunk.devices) {
                output.collect(
                        DispatchTags.LISTED_DEVICES,
                        out.replace(RegistryInput.of(device, chunk.request)));
            }
            return true;
        }
        String[] uids;
        if (chunk.uids != null) {
            uids = chunk.uids; // a list's slice: nothing to look up
        } else {
            try {
                uids = audiences.uids(chunk.ids);
            } catch (Exception e) {
                if (!RecordFailure.isOutsideFailure(e)) {
                    throw e;
                }
                failures.inc();
                if (waiting.isEmpty()) {
                    LOG.warn(
                            "Uid dictionary failed ({}): campaign {} chunk {} waits, asked again in"
                                    + " {} ms",
                            e.toString(),
                            chunk.request.msgId,
                            chunk.index,
                            backoff.delayMs());
                }
                return false;
            }
        }
        StreamRecord<UidKeyed> out = new StreamRecord<>(null, chunk.request.ts);
        for (String uid : uids) {
            if (uid == null) {
                unassigned.inc();
            } else {
                resolved.inc();
                output.collect(out.replace(UidKeyed.request(uid, chunk.request)));
            }
        }
        return true;
    }

    private void scheduleRetry() {
        backoff.schedule(getProcessingTimeService(), t -> retry());
    }

    private void retry() throws Exception {
        while (!waiting.isEmpty()) {
            if (!resolve(waiting.peek())) {
                backoff.failedAgain();
                scheduleRetry();
                return;
            }
            waiting.poll();
        }
        if (backoff.reset()) {
            LOG.info("Uid dictionary answers again: waiting chunks resolved");
        }
    }

    /**
     * A bounded input ends: what waits is resolved now, or the job fails and its restart strategy
     * asks again from the last checkpoint (which holds the waiting chunks).
     */
    @Override
    public void endInput() throws Exception {
        retry();
        if (!waiting.isEmpty()) {
            throw new java.io.IOException(
                    "the uid dictionary did not answer; "
                            + waiting.size()
                            + " campaign chunks unresolved at the end of the input");
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext ctx) throws Exception {
        super.snapshotState(ctx);
        waitingState.update(new ArrayList<>(waiting));
    }

    @Override
    public void close() throws Exception {
        if (audiences != null) {
            audiences.close();
        }
        super.close();
    }
}
