package io.pushline.segments;

import io.pushline.common.CommonOptions;
import io.pushline.common.KafkaIO;
import io.pushline.common.OptionsParser;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Which membership changes a build reads: from the group's committed offsets to the end offsets
 * taken when the build starts. Committed after the build has written every segment, so a failed
 * build is simply run again.
 */
final class ChangeOffsets {
    final String topic;
    final String group;
    final Map<TopicPartition, Long> end;
    private final Map<TopicPartition, Long> start;
    private final Properties admin;

    private ChangeOffsets(
            String topic,
            String group,
            Map<TopicPartition, Long> start,
            Map<TopicPartition, Long> end,
            Properties admin) {
        this.topic = topic;
        this.group = group;
        this.start = start;
        this.end = end;
        this.admin = admin;
    }

    static ChangeOffsets of(Configuration options) throws Exception {
        String topic = options.get(SegmentsOptions.CHANGES_TOPIC);
        String group = options.get(SegmentsOptions.GROUP_ID);
        Properties p = KafkaIO.clientProperties(options);
        p.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                OptionsParser.require(options, CommonOptions.KAFKA_BOOTSTRAP));
        Map<TopicPartition, Long> start = new HashMap<>();
        Map<TopicPartition, Long> end = new HashMap<>();
        if (topic == null || topic.isBlank()) {
            return new ChangeOffsets(topic, group, start, end, p);
        }
        try (Admin a = Admin.create(p)) {
            if (!a.listTopics().names().get().contains(topic)) {
                return new ChangeOffsets(topic, group, start, end, p);
            }
            TopicDescription d = a.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            Map<TopicPartition, OffsetSpec> latest =
                    d.partitions().stream()
                            .collect(
                                    Collectors.toMap(
                                            i -> new TopicPartition(topic, i.partition()),
                                            i -> OffsetSpec.latest()));
            ListOffsetsResult offsets = a.listOffsets(latest);
            for (TopicPartition tp : latest.keySet()) {
                end.put(tp, offsets.partitionResult(tp).get().offset());
            }
            Map<TopicPartition, OffsetAndMetadata> committed =
                    a.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            for (TopicPartition tp : end.keySet()) {
                OffsetAndMetadata o = committed.get(tp);
                start.put(tp, o == null ? 0L : o.offset());
            }
        }
        return new ChangeOffsets(topic, group, start, end, p);
    }

    /** Whether any partition has changes past the committed offsets. */
    boolean hasNew() {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (e.getValue() > start.getOrDefault(e.getKey(), 0L)) {
                return true;
            }
        }
        return false;
    }

    void commit() throws Exception {
        if (!hasNew()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        end.forEach((tp, o) -> offsets.put(tp, new OffsetAndMetadata(o)));
        try (Admin a = Admin.create(admin)) {
            a.alterConsumerGroupOffsets(group, offsets).all().get();
        }
    }
}
