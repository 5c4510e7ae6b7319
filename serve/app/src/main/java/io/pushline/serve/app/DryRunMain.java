package io.pushline.serve.app;

import io.pushline.common.CommonOptions;
import io.pushline.common.LocalEnv;
import io.pushline.common.OptionsParser;
import io.pushline.common.PushlineDirs;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.schema.Json;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;

/**
 * The dry run in serve's own jar: {@code java -cp pushline-serve.jar
 * io.pushline.serve.app.DryRunMain --expr E --msg-type T --checkpoints DIR [--key value ...]}
 * prints the JSON answer (the console's form) as its last line, or {@code
 * {"ok":false,"error":{...}}}. serve starts it in a JVM of its own for each dry run, so a dry run's
 * memory never counts against the API's.
 */
public final class DryRunMain {
    private DryRunMain() {}

    public static void main(String[] args) {
        int code;
        try {
            code = run(args);
        } catch (Exception e) {
            code = fail(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        System.exit(code);
    }

    static int run(String[] args) throws Exception {
        String expr = null;
        String msgType = null;
        String checkpoints = null;
        Map<String, String> s3 = new java.util.TreeMap<>();
        java.nio.file.Path home = PushlineDirs.home();
        Map<String, String> env = LocalEnv.read(home);
        List<String> options = new ArrayList<>(LocalEnv.options(home));
        if (env.containsKey("DISPATCH_RULES")) {
            options.add("--" + DispatchOptions.GATE_RULES.key());
            options.add(env.get("DISPATCH_RULES"));
        }
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--expr" -> expr = args[++i];
                case "--msg-type" -> msgType = args[++i];
                case "--checkpoints" -> checkpoints = args[++i];
                // Flink's S3 filesystem settings, for checkpoints on an S3 API other than AWS
                case "--s3.endpoint", "--s3.path.style.access" -> s3.put(a.substring(2), args[++i]);
                case "--json" -> {}
                default -> {
                    options.add(a);
                    if (v != null && !a.contains("=")) {
                        options.add(v);
                        i++;
                    }
                }
            }
        }
        if (expr == null || msgType == null) {
            return fail("the dry run needs --expr and --msg-type");
        }
        if (checkpoints == null && env.containsKey("DISPATCH_CHECKPOINTS")) {
            checkpoints = env.get("DISPATCH_CHECKPOINTS");
        }
        if (checkpoints == null) {
            return fail(
                    "no checkpoint folder of the dispatch job: give serve the option"
                            + " serve.console.dispatch-checkpoints");
        }
        Configuration conf =
                OptionsParser.parse(options.toArray(new String[0]), DispatchOptions.accepted());
        OptionsParser.require(conf, CommonOptions.HBASE_ZK_QUORUM);
        Configuration flink = flinkConfiguration();
        s3.forEach(flink::setString);
        // s3:// checkpoints: Flink's S3 filesystem is in this jar; its settings come from here
        // and its credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or the IAM role.
        S3Plugin.initialize(flink, Paths.get(flink.getString("io.tmp.dirs", "/tmp")));
        Map<String, Object> out =
                DryRunReport.newest(
                        flink, conf, new Path(checkpoints), expr, msgType, "is it running?");
        System.out.println(Json.write(out));
        return Boolean.FALSE.equals(out.get("ok")) ? 1 : 0;
    }

    /** A local Flink for reading one checkpoint: RocksDB, small managed memory, a temp folder. */
    static Configuration flinkConfiguration() throws java.io.IOException {
        java.nio.file.Path tmp = Files.createTempDirectory("pushline-dry-run");
        // RocksDB's files and the S3 plugin's jar (31 MB) go with the JVM: one dry run, one folder
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    try {
                                        PushlineDirs.deleteRecursively(tmp);
                                    } catch (java.io.IOException e) {
                                        // left to the system's temp cleaning
                                    }
                                }));
        Configuration c = new Configuration();
        c.setString("state.backend.type", "rocksdb");
        c.setString("pipeline.generic-types", "false");
        c.setString("taskmanager.memory.managed.size", "256m");
        c.setString("io.tmp.dirs", tmp.toString());
        return c;
    }

    private static int fail(String message) {
        System.out.println(Json.write(DryRunReport.error(message)));
        return 1;
    }
}
