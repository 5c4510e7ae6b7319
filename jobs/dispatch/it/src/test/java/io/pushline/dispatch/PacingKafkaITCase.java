package io.pushline.dispatch;

import static io.pushline.dispatch.DispatchKafkaITCase.bind;
import static io.pushline.dispatch.DispatchKafkaITCase.kv;
import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.common.CommonOptions;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Topics;
import io.pushline.schema.Vendor;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.testkit.Clusters;
import io.pushline.testkit.KafkaTopics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pacing end to end on the real embedded Kafka and Flink (parallelism 2): a level-1 campaign to 300
 * Huawei devices paced at 30/s (ten seconds of backlog), then five level-3 pushes. The vendor topic
 * (one partition) shows the realtime pushes ahead of the bulk backlog that was waiting before them;
 * a campaign past its deadline is dropped as expired in push.decisions; a bad feedback record is a
 * dead letter. Only orders and counts are asserted, no wall-clock timings.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PacingKafkaITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final long T = 1_767_225_600_000L;
    static final int BULK = 300;
    static final String BAD_FEEDBACK = "{\"vendor\":\"nokia\",\"status\":\"throttled\"}";

    static Map<String, List<String>> topics = new HashMap<>();

    @BeforeAll
    static void run() throws Exception {
        LocalStack stack = STACK.get();
        String kafka = stack.kafkaBootstrap();
        List<String> others = new ArrayList<>(Topics.dispatchTopics());
        others.remove(Vendor.HUAWEI.topic());
        stack.kafka().recreateTopics(others, 2);
        stack.kafka().recreateTopics(List.of(Vendor.HUAWEI.topic()), 1);

        List<String[]> events = new ArrayList<>();
        for (int i = 0; i < BULK; i++) {
            events.add(kv("b" + i, bind(T, "b" + i, "ub" + i, "huawei", "t", null, null)));
        }
        for (int i = 0; i < 5; i++) {
            events.add(kv("r" + i, bind(T, "r" + i, "ur" + i, "huawei", "t", null, null)));
        }
        for (int i = 0; i < 50; i++) {
            events.add(kv("f" + i, bind(T, "f" + i, "uf" + i, "fcm", "t", null, null)));
        }
        List<String[]> requests = new ArrayList<>();
        requests.add(kv("bulk", push(T + 1000, "bulk", 1, null, uids("ub", BULK))));
        requests.add(kv("late", push(T + 1500, "late", 1, T + 1, uids("uf", 50))));
        for (int i = 0; i < 5; i++) {
            requests.add(
                    kv("rt" + i, push(T + 2000 + i * 100, "rt" + i, 3, null, "\"ur" + i + "\"")));
        }
        KafkaTopics.produce(kafka, Topics.DEVICE_EVENTS, events);
        KafkaTopics.produce(kafka, Topics.PUSH_REQUESTS, requests);
        KafkaTopics.produce(
                kafka, Topics.VENDOR_FEEDBACK, List.<String[]>of(kv("nokia", BAD_FEEDBACK)));

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.KAFKA_BOUNDED.key(), "true");
        opts.put(CommonOptions.KAFKA_STARTING_OFFSETS.key(), "earliest");
        opts.put(DispatchOptions.IDLE_ADVANCE.key(), "0 s");
        // stamped at fixed dates long past: no wall-clock horizon behind
        opts.put(DispatchOptions.MAX_PAST.key(), "0 s");
        opts.put(DispatchOptions.TRANSACTIONAL_ID_PREFIX.key(), "it-pacing");
        opts.put(DispatchOptions.PACING_RATES.key(), "huawei:30");
        // its own registry tables: other ITCases assert the exact rows of theirs
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), "itpacing");
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        JobClient job = DispatchJob.start(env, Configuration.fromMap(opts));
        job.getJobExecutionResult().get(4, TimeUnit.MINUTES);
        for (String topic : Topics.dispatchTopics()) {
            topics.put(topic, KafkaTopics.readAllAfterJobs(kafka, topic));
        }
    }

    @Test
    void realtimePushesOvertakeTheBulkBacklogAndNothingIsLostOrRepeated() {
        List<SendRecord> huawei =
                topics.get(Vendor.HUAWEI.topic()).stream()
                        .map(s -> Json.read(s, SendRecord.class))
                        .collect(Collectors.toList());
        assertThat(huawei).hasSize(BULK + 5);
        assertThat(huawei.stream().map(s -> s.deviceId).distinct()).hasSize(BULK + 5);
        List<Integer> realtime =
                IntStream.range(0, huawei.size())
                        .filter(i -> huawei.get(i).level == 3)
                        .boxed()
                        .collect(Collectors.toList());
        assertThat(realtime).hasSize(5);
        // each realtime send is ahead of at least half of the bulk campaign decided before it
        assertThat(realtime).allMatch(i -> i < BULK / 2);
        assertThat(huawei.subList(BULK / 2 + 5, huawei.size()))
                .allMatch(s -> s.msgId.equals("bulk"));
    }

    @Test
    void aCampaignPastItsDeadlineIsDroppedAsExpired() {
        List<Decision> late =
                topics.get(Topics.DECISIONS).stream()
                        .map(s -> Json.read(s, Decision.class))
                        .filter(d -> d.msgId.equals("late"))
                        .collect(Collectors.toList());
        assertThat(late.stream().filter(d -> "expired".equals(d.reason))).hasSize(50);
        assertThat(late.stream().filter(Decision::isPass)).hasSize(50);
        assertThat(topics.get(Vendor.FCM.topic())).isEmpty();
    }

    @Test
    void thePacerReportsTheBacklogOnPushPacing() {
        List<PacingStatus> huawei =
                topics.get(Topics.PACING_STATUS).stream()
                        .map(s -> Json.read(s, PacingStatus.class))
                        .filter(r -> r.vendor.equals("huawei"))
                        .collect(Collectors.toList());
        // 300 bulk and 5 realtime sends at 30/s: reports five times a second while they drain
        assertThat(huawei).hasSizeGreaterThan(25);
        assertThat(huawei).allMatch(r -> r.maxRate == 30.0 && r.rate == 30.0);
        assertThat(huawei.stream().mapToLong(r -> r.backlog).max().orElse(0))
                .isBetween(BULK / 2L, BULK + 5L);
        // and the event time the pacer has reached, which only moves forward
        long[] watermarks = huawei.stream().mapToLong(r -> r.watermark).toArray();
        assertThat(watermarks[watermarks.length - 1]).isGreaterThanOrEqualTo(T + 2_000);
        for (int i = 1; i < watermarks.length; i++) {
            assertThat(watermarks[i]).isGreaterThanOrEqualTo(watermarks[i - 1]);
        }
    }

    @Test
    void aBadFeedbackRecordIsADeadLetter() {
        List<DeadLetter> dead =
                topics.get(Topics.DLQ).stream()
                        .map(s -> Json.read(s, DeadLetter.class))
                        .collect(Collectors.toList());
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).source).isEqualTo(Topics.VENDOR_FEEDBACK);
        assertThat(dead.get(0).reason).isEqualTo("unknown vendor 'nokia'");
        assertThat(dead.get(0).raw).isEqualTo(BAD_FEEDBACK);
    }

    private static String uids(String prefix, int n) {
        return IntStream.range(0, n)
                .mapToObj(i -> "\"" + prefix + i + "\"")
                .collect(Collectors.joining(","));
    }

    private static String push(long ts, String msgId, int level, Long deadline, String uids) {
        return "{\"ts\":"
                + ts
                + ",\"type\":\"push\",\"msgId\":\""
                + msgId
                + "\",\"msgType\":\"news\",\"level\":"
                + level
                + (deadline == null ? "" : ",\"deadline\":" + deadline)
                + ",\"title\":\"T "
                + msgId
                + "\",\"body\":\"B\",\"target\":{\"uids\":["
                + uids
                + "]}}";
    }
}
