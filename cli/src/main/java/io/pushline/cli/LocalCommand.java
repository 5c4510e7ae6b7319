package io.pushline.cli;

import io.pushline.common.UsageException;
import io.pushline.local.LocalStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CountDownLatch;

/** {@code ./pushline local up}: the embedded stack in the foreground. */
final class LocalCommand {
    private LocalCommand() {}

    static int run(String[] args) throws Exception {
        if (args.length == 0 || !args[0].equals("up")) {
            throw new UsageException("usage: ./pushline local up [--dir DIR]");
        }
        Path dir = LocalStack.defaultDir();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--dir") && i + 1 < args.length) {
                dir = Paths.get(args[++i]).toAbsolutePath();
            } else {
                throw new UsageException("unknown argument '" + args[i] + "' for local up");
            }
        }
        System.out.println("Starting Kafka (KRaft) and HBase under " + dir + " ...");
        long t0 = System.nanoTime();
        LocalStack stack = LocalStack.start(dir, LocalStack.DEFAULT_START_TIMEOUT);
        CountDownLatch stopped = new CountDownLatch(1);
        Path envFile = dir.resolve("local.env");
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    System.out.println("Stopping the local stack ...");
                                    stack.close();
                                    try {
                                        Files.deleteIfExists(envFile);
                                    } catch (Exception ignored) {
                                        // Best effort: a stale file only points at closed ports.
                                    }
                                    stopped.countDown();
                                },
                                "pushline-local-stop"));
        Files.writeString(envFile, stack.envLines(), StandardCharsets.UTF_8);
        System.out.print(stack.envLines());
        System.out.printf(
                "Up in %.1f s. Wrote %s. Topics: push.requests, device.events, push.decisions,"
                        + " push.dlq, push.vendor.*. Ctrl-C stops.%n",
                (System.nanoTime() - t0) / 1e9, envFile);
        System.out.flush();
        stopped.await();
        return 0;
    }
}
