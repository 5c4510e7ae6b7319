package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.common.JobOptionArgs;
import io.pushline.common.LocalEnv;
import io.pushline.common.OptionsParser;
import io.pushline.dispatch.DispatchOptions;
import io.pushline.dispatch.GateDryRun;
import io.pushline.local.LocalFlink;
import io.pushline.local.LocalStack;
import io.pushline.schema.Json;
import io.pushline.serve.app.DryRunReport;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline audience dry-run --expr E --msg-type T [--checkpoints DIR] [--json]}: what the
 * dispatch job's gate would do now with a campaign of type T to audience E (see {@link
 * GateDryRun}), and how long the pacer would take. The console runs it and shows the JSON.
 */
@Command(
        name = "dry-run",
        mixinStandardHelpOptions = true,
        preprocessor = JobOptionArgs.class,
        description = {
            "What the dispatch job's gate would do with a campaign now, from the job's own state"
                    + " (its newest checkpoint), and how long the pacer would take.",
            "Any other --key value is a dispatch job option."
        })
final class DryRunCommand extends JobOptionArgs.Command implements Callable<Integer> {
    @Option(names = "--expr", required = true, paramLabel = "EXPR")
    String expr;

    @Option(names = "--msg-type", required = true, paramLabel = "TYPE")
    String msgType;

    @Option(
            names = "--checkpoints",
            paramLabel = "DIR",
            description = "The dispatch job's checkpoints (default: those of ./pushline run).")
    Path checkpoints;

    @Option(names = "--json", description = "Answer in JSON (the console's form).")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Path checkpoints = this.checkpoints;
        List<String> options = new ArrayList<>();
        Path home = LocalStack.defaultDir();
        Map<String, String> env = LocalEnv.read(home);
        options.addAll(LocalEnv.options(home));
        if (env.containsKey("DISPATCH_RULES")) {
            options.add("--" + DispatchOptions.GATE_RULES.key());
            options.add(env.get("DISPATCH_RULES"));
        }
        options.addAll(jobOptions());
        if (checkpoints == null && env.containsKey("DISPATCH_CHECKPOINTS")) {
            checkpoints = Paths.get(env.get("DISPATCH_CHECKPOINTS"));
        }
        if (checkpoints == null) {
            checkpoints = home.resolve("flink-run").resolve("checkpoints");
        }
        Configuration conf =
                OptionsParser.parse(options.toArray(new String[0]), DispatchOptions.accepted());
        OptionsParser.require(conf, CommonOptions.HBASE_ZK_QUORUM);
        Map<String, Object> out =
                DryRunReport.newest(
                        LocalFlink.configuration(home.resolve("flink-dry-run")),
                        conf,
                        new org.apache.flink.core.fs.Path(checkpoints.toUri()),
                        expr,
                        msgType,
                        "is it running (./pushline run dispatch, or the demo with --keep)?");
        if (Boolean.FALSE.equals(out.get("ok"))) {
            @SuppressWarnings("unchecked")
            Map<String, Object> e = (Map<String, Object>) out.get("error");
            return fail(json, (String) e.get("message"));
        }
        if (json) {
            System.out.println(Json.write(out));
        } else {
            print(out);
        }
        return 0;
    }

    private static int fail(boolean json, String message) {
        if (json) {
            System.out.println(
                    Json.write(Map.of("ok", false, "error", Map.of("message", message))));
        } else {
            System.err.println(message);
        }
        return 1;
    }

    @SuppressWarnings("unchecked")
    private static void print(Map<String, Object> out) {
        System.out.printf(
                "%,d members, %,d with a device (%,d devices): pass %,d, drop %,d %s%n",
                out.get("members"),
                out.get("withDevice"),
                out.get("devices"),
                out.get("pass"),
                out.get("dropped"),
                out.get("drops"));
        for (Map<String, Object> v : (List<Map<String, Object>>) out.get("vendors")) {
            System.out.printf(
                    "  %-9s devices %,9d  pass %,9d  drop %,9d  %s  at %,d/s: %.0f s%n",
                    v.get("vendor"),
                    v.get("devices"),
                    v.get("pass"),
                    v.get("dropped"),
                    v.get("drops"),
                    v.get("rate"),
                    v.get("seconds"));
        }
        Map<String, Object> s = (Map<String, Object>) out.get("state");
        System.out.printf(
                "gate state: %s (%.0f s old); rates %s%n",
                s.get("path"), ((Long) s.get("ageMs")) / 1000.0, out.get("ratesFrom"));
    }
}
