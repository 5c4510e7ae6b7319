package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.pushline.common.OptionValues;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every manifest in {@code k8s/} as the cluster would take it: FlinkDeployments against the
 * operator's published CRD (k8s/operator/, Flink Kubernetes Operator 1.15.0), unchanged; the other
 * resources read into the Kubernetes API model classes, where what they read back must contain
 * everything written. A misspelled or misplaced field, or a {@code flinkVersion} the operator does
 * not know, fails the build.
 */
class K8sManifestsTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    private static final Map<String, Class<?>> KINDS =
            Map.of(
                    "ConfigMap", ConfigMap.class,
                    "Deployment", Deployment.class,
                    "Service", Service.class,
                    "CronJob", CronJob.class,
                    "ServiceAccount", ServiceAccount.class,
                    "Role", Role.class,
                    "RoleBinding", RoleBinding.class);

    private static final String OPERATOR_CRD = "operator/flinkdeployments.flink.apache.org-v1.yml";

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

    /** The Kubernetes resources: the base's and the overlays' patches, not kustomize's files. */
    static List<Path> manifests() throws IOException {
        try (Stream<Path> files = Files.walk(k8sDir())) {
            return files.filter(
                            f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .filter(f -> !f.getFileName().toString().equals("kustomization.yaml"))
                    .filter(f -> !f.startsWith(k8sDir().resolve("operator")))
                    .filter(f -> !f.startsWith(k8sDir().resolve("base/kustomize")))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    static List<Path> flinkDeployments() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path f : manifests()) {
            for (JsonNode doc : documents(f)) {
                if (doc.path("kind").asText().equals("FlinkDeployment")) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    private static CrdSchema operatorSchema() throws IOException {
        return CrdSchema.of(documents(k8sDir().resolve(OPERATOR_CRD)).get(0), "v1beta1");
    }

    @Test
    void thereAreManifests() throws IOException {
        assertThat(manifests()).isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("manifests")
    void everyDocumentIsValidForItsKind(Path file) throws IOException {
        for (JsonNode doc : documents(file)) {
            String kind = doc.path("kind").asText();
            if (kind.equals("FlinkDeployment")) {
                assertThat(doc.path("apiVersion").asText()).isEqualTo("flink.apache.org/v1beta1");
                assertThat(operatorSchema().errors(doc))
                        .as("%s: against the operator's CRD (%s)", file, OPERATOR_CRD)
                        .isEmpty();
                continue;
            }
            assertThat(kind).as("%s: no secret in a manifest", file).isNotEqualTo("Secret");
            Class<?> type = KINDS.get(kind);
            assertThat(type).as("%s: kind '%s' has no API class here", file, kind).isNotNull();
            Object bound = YAML.treeToValue(doc, type);
            List<String> lost = new ArrayList<>();
            lostFields("", doc, YAML.valueToTree(bound), lost);
            // Kubernetes model classes keep unknown fields aside instead of failing.
            strayFields(kind, bound, lost, new java.util.IdentityHashMap<>());
            assertThat(lost).as("%s: fields the %s classes do not know", file, kind).isEmpty();
        }
    }

    /** The check itself: the fields the operator decides on are the ones it refuses. */
    @Test
    void theOperatorSchemaRefusesWhatTheOperatorWouldNot() throws IOException {
        JsonNode good = documents(k8sDir().resolve("base/dispatch.yaml")).get(0);
        assertThat(operatorSchema().errors(good)).isEmpty();
        JsonNode unknownVersion = good.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) unknownVersion.get("spec"))
                .put("flinkVersion", "v2_9");
        assertThat(operatorSchema().errors(unknownVersion))
                .singleElement()
                .asString()
                .startsWith("/spec/flinkVersion: \"v2_9\" is not one of");
        JsonNode typo = good.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) typo.get("spec").get("job"))
                .put("upgradMode", "savepoint");
        assertThat(operatorSchema().errors(typo))
                .containsExactly("/spec/job/upgradMode: unknown field");
        JsonNode badType = good.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) badType.get("spec").get("job"))
                .put("parallelism", "four");
        assertThat(operatorSchema().errors(badType))
                .containsExactly("/spec/job/parallelism: expected an integer, got \"four\"");
    }

    @Test
    void theDispatchJobUpgradesThroughSavepoints() throws IOException {
        JsonNode d = documents(k8sDir().resolve("base/dispatch.yaml")).get(0);
        assertThat(d.path("spec").path("flinkVersion").asText()).isEqualTo("v2_2");
        assertThat(d.path("spec").path("job").path("upgradeMode").asText()).isEqualTo("savepoint");
        assertThat(d.path("spec").path("job").path("entryClass").asText())
                .isEqualTo("io.pushline.dispatch.DispatchJob");
        assertThat(d.path("spec").path("flinkConfiguration").path("state.backend.type").asText())
                .isEqualTo("rocksdb");
        assertThat(
                        d.path("spec")
                                .path("flinkConfiguration")
                                .path("pipeline.max-parallelism")
                                .asText())
                .isEqualTo("720");
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
                    .contains("/opt/flink/plugins/s3-fs-hadoop")
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
                if (a.startsWith("--")
                        && !a.startsWith("--kafka.properties.")
                        && !a.startsWith("--hbase.properties.")) {
                    assertThat(current)
                            .as("%s: %s is not a current option of %s", file, a, entry)
                            .contains(a.substring(2));
                }
            }
            // values too, as the JobManager's main() reads them: every ${env:..} from the
            // ConfigMap or the pod's env, every ${file:..} from a mounted Secret
            for (Map<String, String> endpoints : endpointsPerOverlay().values()) {
                OptionsParser.parse(
                        args.toArray(new String[0]), accepted, podValues(file, doc, endpoints));
            }
            for (String a : args) {
                assertThat(a.contains("password=\"") && !a.contains("password=\"${"))
                        .as("%s: a password written into the manifest: %s", file, a)
                        .isFalse();
            }
        }
    }

    /** What main() sees in a FlinkDeployment's pod: its env, the ConfigMap, the Secret's files. */
    private static OptionValues podValues(Path file, JsonNode doc, Map<String, String> endpoints) {
        return podValues(
                file,
                doc.path("spec").path("podTemplate").path("spec"),
                "flink-main-container",
                endpoints);
    }

    /** What container {@code name} of pod spec {@code pod} reads as ${env:..} and ${file:..}. */
    private static OptionValues podValues(
            Path file, JsonNode pod, String name, Map<String, String> endpoints) {
        Map<String, String> env = new java.util.HashMap<>();
        List<String> secretMounts = new ArrayList<>();
        Map<String, String> secretVolumes = new java.util.HashMap<>();
        pod.path("volumes")
                .forEach(
                        v -> {
                            if (v.has("secret")) {
                                secretVolumes.put(v.path("name").asText(), "");
                            }
                        });
        for (JsonNode c : pod.path("containers")) {
            if (!c.path("name").asText().equals(name)) {
                continue;
            }
            c.path("env").forEach(e -> env.put(e.path("name").asText(), e.path("value").asText()));
            for (JsonNode from : c.path("envFrom")) {
                if (from.has("secretRef")) {
                    continue; // credentials for the S3 filesystem, not for arguments
                }
                assertThat(from.path("configMapRef").path("name").asText())
                        .as("%s: envFrom", file)
                        .isEqualTo("pushline-endpoints");
                env.putAll(endpoints);
            }
            c.path("volumeMounts")
                    .forEach(
                            m -> {
                                if (secretVolumes.containsKey(m.path("name").asText())) {
                                    secretMounts.add(m.path("mountPath").asText() + "/");
                                }
                            });
        }
        return OptionValues.of(
                env::get,
                path -> secretMounts.stream().anyMatch(path::startsWith) ? "secret" : null);
    }

    /**
     * serve's Deployment: its arguments are serve's current options and parse with what its pod
     * gives it (tokens and passwords only from mounted Secrets), it listens where its probes and
     * Service look, runs several replicas, asks for resources, and its image is serve/app's.
     */
    @Test
    void serveRunsAsADeploymentOfItsOwnBehindAService() throws IOException {
        Path file = k8sDir().resolve("base/serve.yaml");
        List<JsonNode> docs = documents(file);
        JsonNode deployment =
                docs.stream()
                        .filter(d -> d.path("kind").asText().equals("Deployment"))
                        .findFirst()
                        .orElseThrow();
        JsonNode pod = deployment.path("spec").path("template").path("spec");
        JsonNode c = pod.path("containers").get(0);
        List<String> args = new ArrayList<>();
        c.path("args").forEach(a -> args.add(a.asText()));
        List<ConfigOption<?>> accepted = io.pushline.serve.ServeOptions.accepted();
        List<String> current = new ArrayList<>();
        accepted.forEach(o -> current.add(o.key()));
        for (String a : args) {
            if (a.startsWith("--") && !a.startsWith("--kafka.properties.")) {
                assertThat(current)
                        .as("%s: %s is not a serve option", file, a)
                        .contains(a.substring(2));
            }
        }
        for (Map<String, String> endpoints : endpointsPerOverlay().values()) {
            var conf =
                    OptionsParser.parse(
                            args.toArray(new String[0]),
                            accepted,
                            podValues(file, pod, c.path("name").asText(), endpoints));
            assertThat(conf.get(io.pushline.serve.ServeOptions.APP_KEYS))
                    .isEqualTo("/etc/pushline/serve/app-keys");
            assertThat(conf.get(io.pushline.serve.ServeOptions.CONSOLE_TOKEN)).isEqualTo("secret");
            assertThat(conf.get(io.pushline.serve.ServeOptions.HOST)).isEqualTo("0.0.0.0");
        }
        String port = args.get(args.indexOf("--serve.port") + 1);
        assertThat(c.path("ports").get(0).path("containerPort").asText()).isEqualTo(port);
        assertThat(c.path("readinessProbe").path("httpGet").path("path").asText())
                .isEqualTo("/health");
        assertThat(c.path("livenessProbe").path("httpGet").path("path").asText())
                .isEqualTo("/health");
        assertThat(c.path("resources").path("requests").has("cpu")).isTrue();
        assertThat(c.path("resources").path("requests").has("memory")).isTrue();
        assertThat(deployment.path("spec").path("replicas").asInt()).isGreaterThan(1);
        JsonNode service =
                docs.stream()
                        .filter(d -> d.path("kind").asText().equals("Service"))
                        .findFirst()
                        .orElseThrow();
        assertThat(service.path("spec").path("selector"))
                .isEqualTo(deployment.path("spec").path("selector").path("matchLabels"));
        assertThat(service.path("spec").path("ports").get(0).path("targetPort").asText())
                .isEqualTo(c.path("ports").get(0).path("name").asText());
        String image = c.path("image").asText();
        assertThat(image).startsWith("ghcr.io/pushline/pushline-serve:");
        String dockerfile = Files.readString(k8sDir().getParent().resolve("serve/app/Dockerfile"));
        assertThat(dockerfile)
                .contains("ghcr.io/pushline/pushline-serve:")
                .contains("JRE_IMAGE=eclipse-temurin:17-jre")
                .containsPattern("COPY .*target/pushline-serve-app-[^ ]+-all\\.jar")
                .contains("\"-jar\"");
        assertThat(Files.readString(k8sDir().getParent().resolve("deploy/build-images.sh")))
                .contains("pushline-serve:$TAG")
                .contains("$ROOT/serve/app");
    }

    /**
     * Each overlay as {@code kubectl apply -k} builds it (kustomize inside kubectl): every
     * FlinkDeployment of the output valid against the operator's CRD, every other resource a known
     * kind, all in the pushline namespace, each image of the base's. Skipped where kubectl is not
     * installed.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"staging", "production"})
    void eachOverlayBuildsWithKustomizeIntoWhatTheOperatorAccepts(String overlay) throws Exception {
        Path kubectl =
                Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                        .map(d -> Paths.get(d, "kubectl"))
                        .filter(Files::isExecutable)
                        .findFirst()
                        .orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(kubectl != null, "kubectl not installed");
        Path out = Files.createTempFile("kustomize-" + overlay, ".yaml");
        try {
            Process p =
                    new ProcessBuilder(
                                    kubectl.toString(),
                                    "kustomize",
                                    k8sDir().resolve("overlays").resolve(overlay).toString())
                            .redirectOutput(out.toFile())
                            .redirectErrorStream(false)
                            .start();
            String err = new String(p.getErrorStream().readAllBytes());
            assertThat(p.waitFor()).as("kubectl kustomize: %s", err).isZero();
            List<JsonNode> docs = documents(out);
            assertThat(docs).hasSizeGreaterThan(10);
            List<String> images = baseImages();
            for (JsonNode doc : docs) {
                String kind = doc.path("kind").asText();
                assertThat(doc.path("metadata").path("namespace").asText()).isEqualTo("pushline");
                if (kind.equals("FlinkDeployment")) {
                    assertThat(operatorSchema().errors(doc))
                            .as("%s", doc.path("metadata"))
                            .isEmpty();
                } else {
                    assertThat(KINDS).containsKey(kind);
                }
                for (JsonNode image : doc.findValues("image")) {
                    assertThat(images).contains(image.asText().replaceAll(":[^:/]+$", ""));
                }
            }
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** The images the base's manifests name, without their tags. */
    private static List<String> baseImages() throws IOException {
        List<String> out = new ArrayList<>();
        for (Path f : manifests()) {
            if (!f.startsWith(k8sDir().resolve("base"))) {
                continue;
            }
            for (JsonNode doc : documents(f)) {
                doc.findValues("image")
                        .forEach(i -> out.add(i.asText().replaceAll(":[^:/]+$", "")));
            }
        }
        return out;
    }

    /** The endpoints ConfigMap's data as each overlay makes it: the base's, patched. */
    static Map<String, Map<String, String>> endpointsPerOverlay() throws IOException {
        Map<String, String> base = configMapData(k8sDir().resolve("base/endpoints.yaml"));
        Map<String, Map<String, String>> out = new java.util.TreeMap<>();
        try (Stream<Path> dirs = Files.list(k8sDir().resolve("overlays"))) {
            for (Path d : dirs.sorted().collect(Collectors.toList())) {
                Map<String, String> merged = new java.util.TreeMap<>(base);
                Map<String, String> patch = configMapData(d.resolve("endpoints.yaml"));
                assertThat(base.keySet())
                        .as("%s: keys the base does not have", d)
                        .containsAll(patch.keySet());
                merged.putAll(patch);
                out.put(d.getFileName().toString(), merged);
            }
        }
        assertThat(out).containsKeys("staging", "production");
        return out;
    }

    private static Map<String, String> configMapData(Path file) throws IOException {
        Map<String, String> data = new java.util.TreeMap<>();
        documents(file)
                .get(0)
                .path("data")
                .fields()
                .forEachRemaining(e -> data.put(e.getKey(), e.getValue().asText()));
        return data;
    }

    @Test
    void theBaseListsEveryManifestAndTheOverlaysBuildOnIt() throws IOException {
        JsonNode base = documents(k8sDir().resolve("base/kustomization.yaml")).get(0);
        List<String> listed = new ArrayList<>();
        base.path("resources").forEach(r -> listed.add(r.asText()));
        try (Stream<Path> files = Files.list(k8sDir().resolve("base"))) {
            assertThat(listed)
                    .containsExactlyInAnyOrderElementsOf(
                            files.map(f -> f.getFileName().toString())
                                    .filter(n -> n.endsWith(".yaml"))
                                    .filter(n -> !n.equals("kustomization.yaml"))
                                    .collect(Collectors.toList()));
        }
        for (String overlay : endpointsPerOverlay().keySet()) {
            JsonNode k =
                    documents(
                                    k8sDir().resolve("overlays")
                                            .resolve(overlay)
                                            .resolve("kustomization.yaml"))
                            .get(0);
            assertThat(k.path("resources").get(0).asText()).isEqualTo("../../base");
            assertThat(k.path("patches").get(0).path("path").asText()).isEqualTo("endpoints.yaml");
            // an overlay's images are images of the base (a misspelt name sets nothing)
            for (JsonNode image : k.path("images")) {
                assertThat(baseImages()).contains(image.path("name").asText());
            }
        }
        JsonNode config =
                documents(
                                k8sDir().resolve("base")
                                        .resolve(base.path("configurations").get(0).asText()))
                        .get(0);
        assertThat(config.path("images").get(0).path("path").asText()).isEqualTo("spec/image");
        assertThat(config.path("images").get(0).path("kind").asText()).isEqualTo("FlinkDeployment");
    }

    /** The CronJob's JSON patch writes the night into the env var the job's arguments read. */
    @Test
    void theNightlyCronJobSetsTheDayTheNightlyJobReads() throws IOException {
        JsonNode nightly = documents(k8sDir().resolve("base/nightly.yaml")).get(0);
        JsonNode cron =
                documents(k8sDir().resolve("base/nightly-cron.yaml")).stream()
                        .filter(d -> d.path("kind").asText().equals("CronJob"))
                        .findFirst()
                        .orElseThrow();
        String script =
                cron.path("spec")
                        .path("jobTemplate")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .path("containers")
                        .get(0)
                        .path("command")
                        .get(2)
                        .asText();
        assertThat(script)
                .contains("patch flinkdeployment " + nightly.path("metadata").path("name").asText())
                .contains("/spec/podTemplate/spec/containers/0/env/0/value")
                .contains("/spec/restartNonce");
        JsonNode container =
                nightly.path("spec").path("podTemplate").path("spec").path("containers").get(0);
        assertThat(container.path("name").asText()).isEqualTo("flink-main-container");
        assertThat(container.path("env").get(0).path("name").asText()).isEqualTo("PUSHLINE_NIGHT");
        List<String> args = new ArrayList<>();
        nightly.path("spec").path("job").path("args").forEach(a -> args.add(a.asText()));
        assertThat(args.get(args.indexOf("--schedule.date") + 1))
                .isEqualTo("${env:PUSHLINE_NIGHT}");
        assertThat(operatorSchema().errors(nightly)).isEmpty();
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
