package io.pushline.dispatch;

import io.pushline.schema.ParsedRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The campaigns that wait for a failing segment store, in arrival order and checkpointed, with the
 * back-off that decides when the store is asked again. Realtime pushes never wait for them: only
 * campaigns queue up here.
 */
final class StoreWaits {
    private static final Logger LOG = LoggerFactory.getLogger(StoreWaits.class);

    private final ArrayDeque<ParsedRecord> queue = new ArrayDeque<>();
    private final Backoff backoff;
    private ListState<ParsedRecord> state;

    StoreWaits(long firstRetryMs, long maxRetryMs) {
        this.backoff = new Backoff(firstRetryMs, maxRetryMs);
    }

    void initialize(OperatorStateStore store) throws Exception {
        state =
                store.getListState(
                        new ListStateDescriptor<>(
                                "campaigns-waiting-for-store",
                                TypeInformation.of(ParsedRecord.class)));
        for (ParsedRecord r : state.get()) {
            queue.add(r);
        }
    }

    void snapshot() throws Exception {
        state.update(new ArrayList<>(queue));
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    int size() {
        return queue.size();
    }

    /** A campaign arriving while others wait: in order, behind them. */
    void add(ParsedRecord in) {
        queue.add(in);
    }

    ParsedRecord next() {
        return queue.poll();
    }

    /**
     * The store failed for {@code in}: it goes first in line again.
     *
     * @param retried whether it was a retry (then the next one waits longer)
     */
    void failed(ParsedRecord in, Throwable t, boolean retried) {
        if (queue.isEmpty()) {
            LOG.warn(
                    "Segment store failed ({}): campaign {} waits and is asked again in {} ms;"
                            + " realtime pushes go on",
                    t.toString(),
                    in.request.msgId,
                    backoff.delayMs());
        }
        if (retried) {
            backoff.failedAgain();
        }
        queue.addFirst(in);
    }

    /** The store answered every waiting campaign. */
    void answered() {
        if (backoff.reset()) {
            LOG.info("Segment store answers again: waiting campaigns started");
        }
    }

    void scheduleRetry(ProcessingTimeService time, ProcessingTimeCallback retry) {
        backoff.schedule(time, retry);
    }

    /** Takes all that still wait (the input ended). */
    List<ParsedRecord> drain() {
        List<ParsedRecord> all = new ArrayList<>(queue);
        queue.clear();
        return all;
    }
}
