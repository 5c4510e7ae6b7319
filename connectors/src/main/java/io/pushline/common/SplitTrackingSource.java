package io.pushline.common;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.kafka.common.TopicPartition;

/**
 * A {@link KafkaSource} whose readers tell {@link ReaderSplits} which partitions they read and
 * where each started, so that {@link IdleAdvancingWatermarks} of a split that has not emitted a
 * record yet can ask the broker about exactly those partitions. Everything else, the state
 * included, is the Kafka source's own: a job restores the same state with or without it.
 */
public final class SplitTrackingSource<T>
        implements Source<T, KafkaPartitionSplit, KafkaSourceEnumState>, ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    private final KafkaSource<T> kafka;

    private SplitTrackingSource(KafkaSource<T> kafka) {
        this.kafka = kafka;
    }

    public static <T> SplitTrackingSource<T> of(KafkaSource<T> kafka) {
        return new SplitTrackingSource<>(kafka);
    }

    @Override
    public Boundedness getBoundedness() {
        return kafka.getBoundedness();
    }

    @Override
    public SourceReader<T, KafkaPartitionSplit> createReader(SourceReaderContext context)
            throws Exception {
        return new Reader<>(kafka.createReader(context), context.metricGroup());
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) {
        return kafka.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaSourceEnumState state)
            throws Exception {
        return kafka.restoreEnumerator(context, state);
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return kafka.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
        return kafka.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return kafka.getProducedType();
    }

    private static final class Reader<T> implements SourceReader<T, KafkaPartitionSplit> {
        private final SourceReader<T, KafkaPartitionSplit> kafka;
        private final Object group;
        private final ReaderSplits splits;

        Reader(SourceReader<T, KafkaPartitionSplit> kafka, Object group) {
            this.kafka = kafka;
            this.group = group;
            this.splits = ReaderSplits.of(group);
            splits.tracked();
        }

        @Override
        public void start() {
            kafka.start();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
            return kafka.pollNext(output);
        }

        @Override
        public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
            return kafka.snapshotState(checkpointId);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return kafka.isAvailable();
        }

        @Override
        public void addSplits(List<KafkaPartitionSplit> added) {
            // before the Kafka reader starts fetching them: no record of theirs is emitted yet
            Map<TopicPartition, Long> starts =
                    added.stream()
                            .collect(
                                    Collectors.toMap(
                                            KafkaPartitionSplit::getTopicPartition,
                                            KafkaPartitionSplit::getStartingOffset,
                                            (a, b) -> b));
            splits.added(starts);
            kafka.addSplits(added);
        }

        @Override
        public void notifyNoMoreSplits() {
            kafka.notifyNoMoreSplits();
        }

        @Override
        public void handleSourceEvents(SourceEvent event) {
            kafka.handleSourceEvents(event);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            kafka.notifyCheckpointComplete(checkpointId);
        }

        @Override
        public void notifyCheckpointAborted(long checkpointId) throws Exception {
            kafka.notifyCheckpointAborted(checkpointId);
        }

        @Override
        public void pauseOrResumeSplits(Collection<String> toPause, Collection<String> toResume) {
            kafka.pauseOrResumeSplits(toPause, toResume);
        }

        @Override
        public void close() throws Exception {
            ReaderSplits.forget(group);
            kafka.close();
        }
    }
}
