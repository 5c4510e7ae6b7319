package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.pushline.common.OptionsParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.apache.flink.kubernetes.operator.api.FlinkSessionJob;
import org.apache.flink.kubernetes.operator.api.spec.UpgradeMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reads every manifest in {@code k8s/} into the operator's API classes: a misspelled or misplaced
 * field fails the build, because what the classes read back must contain everything written.
 */
class K8sManifestsTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    private static final Map<String, Class<?>> KINDS =
            Map.of(
                    "FlinkDeployment", FlinkDeployment.class,
                    "FlinkSessionJob", FlinkSessionJob.class,
                    "ConfigMap", ConfigMap.class);

    static {
        YAML.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
    }

    static Path k8sDir() {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("k8s"))) {
                return p.resolve("k8s");
            }
        }
        throw new IllegalStateException("no k8s/ folder above " + Paths.get("").toAbsolutePath());
    }

    static List<Path> manifests() throws IOException {
        try (Stream<Path> files = Files.walk(k8sDir())) {
            return files.filter(
                            f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    @Test
    void thereAreManifests() throws IOException {
        assertThat(manifests()).isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("manifests")
    void everyDocumentReadsIntoItsApiClassWithoutLosingAField(Path file) throws IOException {
        for (JsonNode doc : documents(file)) {
            String kind = doc.path("kind").asText();
            Class<?> type = KINDS.get(kind);
            assertThat(type).as("%s: kind '%s' has no API class here", file, kind).isNotNull();
            JsonNode input = compatibleFlinkVersion(doc.deepCopy());
            Object bound = YAML.treeToValue(input, type);
            List<String> lost = new ArrayList<>();
            lostFields("", input, YAML.valueToTree(bound), lost);
            // Kubernetes model classes keep unknown fields aside instead of failing.
            strayFields(kind, bound, lost, new java.util.IdentityHashMap<>());
            assertThat(lost).as("%s: fields the %s classes do not know", file, kind).isEmpty();
        }
    }

    @Test
    void theDispatchJobUpgradesThroughSavepoints() throws IOException {
        JsonNode doc = documents(k8sDir().resolve("dispatch.yaml")).get(0);
        FlinkDeployment d =
                YAML.treeToValue(compatibleFlinkVersion(doc.deepCopy()), FlinkDeployment.class);
        assertThat(d.getSpec().getJob().getUpgradeMode()).isEqualTo(UpgradeMode.SAVEPOINT);
        assertThat(d.getSpec().getJob().getEntryClass())
                .isEqualTo("io.pushline.dispatch.DispatchJob");
        assertThat(d.getSpec().getFlinkConfiguration())
                .containsEntry("state.backend.type", "rocksdb")
                .containsEntry("pipeline.max-parallelism", "720");
    }

    /**
     * Every image a manifest names is built by a Dockerfile in the job's module: Flink 2.2 on Java
     * 17, the Prometheus reporter as a plugin, and the shaded jar copied to where the manifest's
     * {@code jarURI} looks for it.
     */
    @ParameterizedTest
    @MethodSource("manifests")
    void everyImageHasADockerfileThatPutsTheJarWhereTheManifestLooks(Path file) throws IOException {
        for (JsonNode doc : documents(file)) {
            String image = doc.path("spec").path("image").asText();
            String jarUri = doc.path("spec").path("job").path("jarURI").asText();
            if (image.isEmpty() || jarUri.isEmpty()) {
                continue;
            }
            String jar = jarUri.substring(jarUri.lastIndexOf('/') + 1);
            // pushline-<module>-job.jar comes from jobs/<module>
            String module = jar.substring("pushline-".length(), jar.length() - "-job.jar".length());
            Path dockerfile =
                    k8sDir().getParent().resolve("jobs").resolve(module).resolve("Dockerfile");
            assertThat(dockerfile).as("%s: image %s", file, image).isRegularFile();
            String text = Files.readString(dockerfile);
            String name = image.substring(image.lastIndexOf('/') + 1, image.lastIndexOf(':'));
            assertThat(text)
                    .as("%s", dockerfile)
                    .contains("ghcr.io/pushline/" + name + ":")
                    .contains("FLINK_IMAGE=flink:2.2.0-scala_2.12-java17")
                    .contains("/opt/flink/plugins/metrics-prometheus")
                    .containsPattern(
                            "COPY --chown=flink:flink target/pushline-"
                                    + module
                                    + "-[^ ]+-job\\.jar "
                                    + java.util.regex.Pattern.quote(
                                            jarUri.substring("local://".length())));
        }
    }

    /** What each job's main() accepts, by entry class. */
    private static final Map<String, List<ConfigOption<?>>> ACCEPTED =
            JobOptions.ALL.stream()
                    .collect(Collectors.toMap(JobOptions::entryClass, JobOptions::accepted));

    @ParameterizedTest
    @MethodSource("manifests")
    void everyJobsArgumentsAreItsOwnCurrentOptions(Path file) throws IOException {
        for (JsonNode doc : documents(file)) {
            JsonNode job = doc.path("spec").path("job");
            if (job.isMissingNode()) {
                continue;
            }
            String entry = job.path("entryClass").asText();
            List<ConfigOption<?>> accepted = ACCEPTED.get(entry);
            assertThat(accepted).as("%s: unknown entry class %s", file, entry).isNotNull();
            List<String> args = new ArrayList<>();
            job.path("args").forEach(a -> args.add(a.asText()));
            List<String> current = new ArrayList<>();
            accepted.forEach(o -> current.add(o.key()));
            for (String a : args) {
                if (a.startsWith("--")) {
                    assertThat(current)
                            .as("%s: %s is not a current option of %s", file, a, entry)
                            .contains(a.substring(2));
                }
            }
            // values too: a bad duration or enum fails here, not at submission
            OptionsParser.parse(args.toArray(new String[0]), accepted);
        }
    }

    private static List<JsonNode> documents(Path file) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (var it = YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile())) {
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n != null && !n.isNull() && !n.isMissingNode()) {
                    docs.add(n);
                }
            }
        }
        return docs;
    }

    /**
     * The newest operator API on Maven Central (1.10.0) predates the Flink 2.x constants of
     * FlinkVersion; a {@code v2_N} value is checked for its shape and bound as the newest 1.x.
     */
    private static JsonNode compatibleFlinkVersion(JsonNode doc) {
        JsonNode spec = doc.get("spec");
        if (spec instanceof ObjectNode && spec.has("flinkVersion")) {
            String v = spec.get("flinkVersion").asText();
            if (v.matches("v2_\\d+")) {
                ((ObjectNode) spec).put("flinkVersion", "v1_20");
            } else if (!v.matches("v1_\\d+")) {
                fail("flinkVersion '%s' is not of the form v2_2", v);
            }
        }
        return doc;
    }

    private static void strayFields(
            String path, Object o, List<String> lost, Map<Object, Boolean> seen) {
        if (o == null || seen.put(o, Boolean.TRUE) != null) {
            return;
        }
        if (o instanceof Iterable) {
            for (Object item : (Iterable<?>) o) {
                strayFields(path + "[]", item, lost, seen);
            }
            return;
        }
        if (o instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
                strayFields(path + "/" + e.getKey(), e.getValue(), lost, seen);
            }
            return;
        }
        String pkg = o.getClass().getPackageName();
        if (!pkg.startsWith("io.fabric8") && !pkg.startsWith("org.apache.flink.kubernetes")) {
            return;
        }
        for (java.lang.reflect.Method m : o.getClass().getMethods()) {
            if (m.getParameterCount() != 0
                    || !m.getName().startsWith("get")
                    || m.getDeclaringClass() == Object.class) {
                continue;
            }
            Object v;
            try {
                v = m.invoke(o);
            } catch (ReflectiveOperationException | RuntimeException e) {
                continue;
            }
            if (m.getName().equals("getAdditionalProperties") && v instanceof Map) {
                for (Object k : ((Map<?, ?>) v).keySet()) {
                    lost.add(path + "/" + k);
                }
            } else {
                strayFields(path + "." + m.getName().substring(3), v, lost, seen);
            }
        }
    }

    private static void lostFields(String path, JsonNode in, JsonNode out, List<String> lost) {
        if (out == null || out.isNull() || out.isMissingNode()) {
            lost.add(path.isEmpty() ? "/" : path);
            return;
        }
        if (in.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = in.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                lostFields(path + "/" + e.getKey(), e.getValue(), out.get(e.getKey()), lost);
            }
        } else if (in.isArray()) {
            for (int i = 0; i < in.size(); i++) {
                lostFields(path + "/" + i, in.get(i), out.get(i), lost);
            }
        } else if (in.isNumber() || out.isNumber()) {
            if (Double.compare(in.asDouble(), out.asDouble()) != 0) {
                lost.add(path + " (" + in + " read as " + out + ")");
            }
        } else if (!in.asText().equals(out.asText())) {
            lost.add(path + " (" + in + " read as " + out + ")");
        }
    }
}
