package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every metric the Grafana dashboard and the alert rules in deploy/monitoring/ use is one the code
 * registers: Flink's own (their names from Flink's classes), Pushline's operator metrics (a
 * registration of that name under those groups in the main sources), serve's (written by serve). A
 * renamed counter fails here, not on an operator's empty panel.
 */
class MonitoringMetricsTest {
    private static final String OPERATOR = "flink_taskmanager_job_task_operator_";
    private static final String JOB = "flink_jobmanager_job_";
    private static final Pattern NAME = Pattern.compile("\\b((?:flink|pushline)_[A-Za-z0-9_]+)");

    static Path root;
    static Set<String> flinkNames;
    static List<String> mainSources;
    static String serveSources;

    @BeforeAll
    static void read() throws Exception {
        root = K8sManifestsTest.k8sDir().getParent();
        flinkNames = new TreeSet<>();
        for (String c :
                List.of(
                        "org.apache.flink.runtime.metrics.MetricNames",
                        "org.apache.flink.runtime.checkpoint.DefaultCheckpointStatsTracker")) {
            for (Field f : Class.forName(c).getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                    f.setAccessible(true);
                    flinkNames.add((String) f.get(null));
                }
            }
        }
        mainSources = new ArrayList<>();
        StringBuilder serve = new StringBuilder();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".java"))
                            .filter(p -> p.toString().contains("/src/main/java/"))
                            .filter(p -> !p.toString().contains("/.pushline/"))
                            .collect(Collectors.toList())) {
                String text = Files.readString(f);
                mainSources.add(text);
                if (f.startsWith(root.resolve("serve"))) {
                    serve.append(text);
                }
            }
        }
        serveSources = serve.toString();
    }

    static Set<String> usedNames() throws IOException {
        Path dir = root.resolve("deploy/monitoring");
        List<String> exprs = new ArrayList<>();
        JsonNode dash =
                new ObjectMapper().readTree(dir.resolve("pushline-dashboard.json").toFile());
        dash.findValues("expr").forEach(e -> exprs.add(e.asText()));
        dash.findValues("query").forEach(e -> exprs.add(e.asText()));
        JsonNode alerts = new YAMLMapper().readTree(dir.resolve("alerts.yaml").toFile());
        alerts.findValues("expr").forEach(e -> exprs.add(e.asText()));
        Set<String> names = new TreeSet<>();
        for (String e : exprs) {
            Matcher m = NAME.matcher(e);
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** Why {@code name} is not a metric the code registers, or null when it is. */
    static String unregistered(String name) {
        if (name.startsWith(JOB)) {
            String metric = name.substring(JOB.length());
            return flinkNames.contains(metric) ? null : "Flink has no job metric " + metric;
        }
        if (name.startsWith(OPERATOR)) {
            String path = name.substring(OPERATOR.length());
            if (flinkNames.contains(path)) {
                return null;
            }
            String[] parts = path.split("_");
            String metric = parts[parts.length - 1];
            Pattern registration =
                    Pattern.compile("\\.(counter|gauge|histogram|meter)\\(\\s*\"" + metric + "\"");
            for (String source : mainSources) {
                if (!registration.matcher(source).find()) {
                    continue;
                }
                boolean groups = true;
                for (int i = 0; i < parts.length - 1; i++) {
                    groups &= source.contains("addGroup(\"" + parts[i] + "\"");
                }
                if (groups) {
                    return null;
                }
            }
            return "no code registers " + metric + " under the groups " + path;
        }
        if (name.startsWith("pushline_")) {
            String base = name.replaceAll("_(bucket|sum|count)$", "");
            return serveSources.contains("\"" + base) || serveSources.contains(base + "{")
                    ? null
                    : "serve writes no " + base;
        }
        return "not a Flink or serve metric";
    }

    @Test
    void theDashboardAndTheAlertsUseOnlyMetricsTheCodeRegisters() throws IOException {
        Set<String> used = usedNames();
        assertThat(used).hasSizeGreaterThan(10);
        List<String> missing = new ArrayList<>();
        for (String n : used) {
            String why = unregistered(n);
            if (why != null) {
                missing.add(n + ": " + why);
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void theDashboardCoversWhatAnOperatorWatches() throws IOException {
        Set<String> used = usedNames();
        assertThat(used)
                .contains(
                        OPERATOR + "gate_reason_msgType_vendor_decisions",
                        OPERATOR + "vendor_sent",
                        OPERATOR + "pendingRecords",
                        OPERATOR + "deadLetters",
                        JOB + "lastCheckpointDuration",
                        JOB + "lastCheckpointSize",
                        JOB + "numberOfFailedCheckpoints",
                        "pushline_http_requests_total");
    }

    /** The check can fail: a misspelled or regrouped metric is refused. */
    @Test
    void aMetricNobodyRegistersIsRefused() {
        assertThat(unregistered(OPERATOR + "vendor_sentt")).isNotNull();
        assertThat(unregistered(OPERATOR + "reason_sent")).isNotNull();
        assertThat(unregistered(JOB + "lastCheckpointDurations")).isNotNull();
        assertThat(unregistered("pushline_http_requests_totals")).isNotNull();
        assertThat(unregistered(OPERATOR + "vendor_sent")).isNull();
    }
}
