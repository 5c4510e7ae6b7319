package io.pushline.serve;

import io.pushline.common.JobOptionArgs;
import io.pushline.common.LocalEnv;
import io.pushline.common.OptionsParser;
import io.pushline.common.PushlineDirs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline serve [--port 8080] [--key value ...]}: the HTTP API for app backends and the
 * console, against the stack of {@code .pushline/local.env} (from {@code ./pushline local up}) or
 * the given Kafka and HBase, until Ctrl-C.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        preprocessor = JobOptionArgs.class,
        description = {
            "The HTTP API for app backends (reminders to pull ahead, inboxes: docs/inbox.md) and"
                    + " the strategists' console, against .pushline/local.env or the given options,"
                    + " until Ctrl-C.",
            "Any other --key value is a serve option (./pushline help options)."
        })
public final class ServeCommand extends JobOptionArgs.Command implements Callable<Integer> {
    @Option(
            names = "--port",
            paramLabel = "PORT",
            description = "Same as --serve.port (default 8080; 0: a free one).")
    Integer port;

    @Override
    public Integer call() throws Exception {
        List<String> all = new ArrayList<>(LocalEnv.options(PushlineDirs.home()));
        all.addAll(jobOptions());
        if (port != null) {
            all.add("--" + ServeOptions.PORT.key());
            all.add(port.toString());
        }
        Configuration conf =
                OptionsParser.parse(all.toArray(new String[0]), ServeOptions.accepted());
        ServeMain.Running running = ServeMain.start(conf, PushlineDirs.home());
        String base =
                (conf.get(ServeOptions.TLS_KEYSTORE) != null ? "https" : "http")
                        + "://localhost:"
                        + running.port();
        System.out.println(
                "pushline serve: listening on port " + running.port() + " (Ctrl-C stops)");
        System.out.println(
                "pushline serve: console at "
                        + base
                        + "/console (log in with "
                        + running.tokenNote()
                        + ")");
        System.out.println(
                "pushline serve: app API at "
                        + base
                        + "/v1/ (Authorization: Bearer SECRET, with "
                        + running.keyNote()
                        + "; described at /v1/openapi.json)");
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    running.close();
                                    stop.countDown();
                                }));
        stop.await();
        return 0;
    }
}
