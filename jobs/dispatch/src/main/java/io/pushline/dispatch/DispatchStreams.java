package io.pushline.dispatch;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.SendRecord;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.registry.RegistryChange;
import org.apache.flink.streaming.api.datastream.DataStream;

/** What the dispatch topology produces, for the caller to send to its sinks. */
public final class DispatchStreams {
    public final DataStream<SendRecord> sends;
    public final DataStream<Decision> decisions;
    public final DataStream<DeadLetter> deadLetters;
    public final DataStream<RegistryChange> registryChanges;

    /** The pacer's backlog reports for push.pacing; null without pacing. */
    public final DataStream<PacingStatus> pacingReports;

    DispatchStreams(
            DataStream<SendRecord> sends,
            DataStream<Decision> decisions,
            DataStream<DeadLetter> deadLetters,
            DataStream<RegistryChange> registryChanges,
            DataStream<PacingStatus> pacingReports) {
        this.sends = sends;
        this.decisions = decisions;
        this.deadLetters = deadLetters;
        this.registryChanges = registryChanges;
        this.pacingReports = pacingReports;
    }
}
