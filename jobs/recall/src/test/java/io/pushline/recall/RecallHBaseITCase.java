package io.pushline.recall;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.common.CommittedRecords;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStack;
import io.pushline.local.LocalStackExtension;
import io.pushline.local.gen.NightlyData;
import io.pushline.recall.score.RecallScorer;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.Topics;
import io.pushline.schema.recall.Material;
import io.pushline.schema.recall.RecallInput;
import io.pushline.schema.recall.RecalledItem;
import io.pushline.testkit.Clusters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recall job's production entry point on the real embedded HBase, Kafka and Flink (BATCH,
 * parallelism 2): generated files in, one {@code user_recall} row per user (uid and date) with the
 * items in-memory scoring gives, bad lines in push.dlq.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RecallHBaseITCase {
    @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();

    @RegisterExtension static final MiniClusterExtension FLINK = Clusters.twoSlots();

    static final LocalDate D = LocalDate.of(2026, 11, 22);

    @TempDir Path dir;

    @Test
    void generatedFilesBecomeUserRecallRowsAndBadLinesDeadLetters() throws Exception {
        LocalStack stack = STACK.get();
        stack.kafka().recreateTopics(List.of(Topics.DLQ), 2);
        new NightlyData(8, D, 14).write(dir, 400);
        Path history = dir.resolve("history.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(history));
        lines.add(0, "{\"uid\":\"u1\",\"itemId\":\"item1\",\"kind\":\"liked\",\"ts\":1}");
        Files.write(history, lines);

        Map<String, String> opts = new HashMap<>(stack.jobOptions());
        opts.put(CommonOptions.HBASE_NAMESPACE.key(), "itrecall");
        opts.put(RecallOptions.DATA.key(), dir.toString());
        opts.put(RecallOptions.DATE.key(), D.toString());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(stack.flinkConfiguration());
        env.setParallelism(2);
        RecallJob.run(env, Configuration.fromMap(opts));

        List<Material> materials = new ArrayList<>();
        Files.readAllLines(dir.resolve("materials.jsonl"))
                .forEach(l -> materials.add(RecallLines.material(l)));
        RecallScorer scorer = new RecallScorer(D, RecallFunction.HALF_LIFE_DAYS);
        Map<String, List<Material>> candidates = scorer.candidates(materials, 50);
        Map<String, Set<String>> seen = new HashMap<>();
        long since = D.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli() - 7 * 86_400_000L;
        for (String l : lines.subList(1, lines.size())) {
            RecallInput h = RecallLines.history(l);
            if (h.kind.equals(RecallInput.CONSUMED) || h.ts >= since) {
                seen.computeIfAbsent(h.uid, x -> new HashSet<>()).add(h.itemId);
            }
        }
        int rows = 0;
        try (Connection c = stack.hbase().newConnection();
                Table t = c.getTable(HBaseTables.userRecall("itrecall"))) {
            for (String line : Files.readAllLines(dir.resolve("users.jsonl"))) {
                RecallInput p = RecallLines.profile(line);
                Map<String, Double> interests = new HashMap<>();
                for (int i = 0; i < p.tags.length; i++) {
                    interests.merge(p.tags[i], p.weights[i], Double::sum);
                }
                List<RecalledItem> expected =
                        scorer.recall(interests, seen.getOrDefault(p.uid, Set.of()), candidates, 5);
                Result r = t.get(new Get(HBaseTables.recallRow(p.uid, "2026-11-22")));
                assertThat(r.isEmpty()).as(p.uid).isFalse();
                JsonNode items =
                        Json.read(
                                Bytes.toString(
                                        r.getValue(HBaseTables.FAMILY, Bytes.toBytes("items"))),
                                JsonNode.class);
                List<String> ids = new ArrayList<>();
                items.forEach(i -> ids.add(i.get("itemId").asText()));
                assertThat(ids)
                        .as(p.uid)
                        .containsExactlyElementsOf(expected.stream().map(x -> x.itemId).toList());
                rows++;
            }
        }
        assertThat(rows).isEqualTo(400);

        List<DeadLetter> dead = new ArrayList<>();
        CommittedRecords.readAll(
                stack.kafkaBootstrap(),
                Topics.DLQ,
                r ->
                        dead.add(
                                Json.read(
                                        new String(r.value(), StandardCharsets.UTF_8),
                                        DeadLetter.class)));
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).reason).isEqualTo("field 'kind' must be consumed or pushed");
        assertThat(dead.get(0).position).endsWith("history.jsonl:1");
    }
}
