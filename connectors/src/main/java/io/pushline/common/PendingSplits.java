package io.pushline.common;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * The enumerator of our small bounded sources: a list of splits handed out one at a time to the
 * readers that ask, then "no more splits"; the list not yet handed out is its checkpoint.
 */
public final class PendingSplits<S extends SourceSplit> implements SplitEnumerator<S, List<S>> {
    private final SplitEnumeratorContext<S> context;
    private final List<S> pending;

    public PendingSplits(SplitEnumeratorContext<S> context, List<S> pending) {
        this.context = context;
        this.pending = new ArrayList<>(pending);
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtask, String host) {
        if (pending.isEmpty()) {
            context.signalNoMoreSplits(subtask);
        } else {
            context.assignSplit(pending.remove(0), subtask);
        }
    }

    @Override
    public void addSplitsBack(List<S> splits, int subtask) {
        pending.addAll(splits);
    }

    @Override
    public void addReader(int subtask) {}

    @Override
    public List<S> snapshotState(long checkpointId) {
        return new ArrayList<>(pending);
    }

    @Override
    public void close() {}
}
