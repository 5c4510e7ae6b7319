package io.pushline.cli;

import io.pushline.common.Cli;
import io.pushline.emulators.Emulators;
import io.pushline.local.LocalStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./pushline local up}: the embedded stack in the foreground. */
@Command(
        name = "local",
        mixinStandardHelpOptions = true,
        description = "The embedded stack.",
        subcommands = LocalCommand.Up.class)
final class LocalCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        throw Cli.missingSubcommand(spec);
    }

    @Command(
            name = "up",
            mixinStandardHelpOptions = true,
            description = {
                "Run the embedded stack (Kafka KRaft, HBase) and the vendor emulators in the"
                        + " foreground until Ctrl-C; prints and writes DIR/local.env and"
                        + " DIR/gateway.env."
            })
    static final class Up implements Callable<Integer> {
        @Option(names = "--dir", paramLabel = "DIR", description = "Default: .pushline.")
        Path dir;

        @Override
        public Integer call() throws Exception {
            Path home = dir == null ? LocalStack.defaultDir() : dir.toAbsolutePath();
            System.out.println("Starting Kafka (KRaft) and HBase under " + home + " ...");
            long t0 = System.nanoTime();
            LocalStack stack = LocalStack.start(home, LocalStack.DEFAULT_START_TIMEOUT);
            Emulators emulators = LocalEmulators.start(home, LocalEmulators.LOCAL);
            Path gatewayEnv = LocalEmulators.write(home, emulators);
            CountDownLatch stopped = new CountDownLatch(1);
            Path envFile = home.resolve("local.env");
            Runtime.getRuntime()
                    .addShutdownHook(
                            new Thread(
                                    () -> {
                                        System.out.println("Stopping the local stack ...");
                                        stack.close();
                                        emulators.close();
                                        try {
                                            Files.deleteIfExists(envFile);
                                            Files.deleteIfExists(gatewayEnv);
                                        } catch (Exception ignored) {
                                            // Best effort: a stale file only points at closed
                                            // ports.
                                        }
                                        stopped.countDown();
                                    },
                                    "pushline-local-stop"));
            Files.writeString(envFile, stack.envLines(), StandardCharsets.UTF_8);
            System.out.print(stack.envLines());
            System.out.printf(
                    "Up in %.1f s. Wrote %s. Topics: push.requests, device.events, push.decisions,"
                            + " push.dlq, push.vendor.*. Vendor emulators (APNs, FCM, Huawei,"
                            + " Honor, Xiaomi, OPPO, vivo) on 127.0.0.1, the gateway's options in"
                            + " %s. Ctrl-C stops.%n",
                    (System.nanoTime() - t0) / 1e9, envFile, gatewayEnv);
            System.out.flush();
            stopped.await();
            return 0;
        }
    }
}
