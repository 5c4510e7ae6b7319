package io.pushline.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code chromium} and {@code chromium-driver}, found on the PATH or installed with
 * apt-get when the build runs as root (CI and fresh machines do). Never a silent skip: without a
 * browser the browser tests fail and say what to install.
 */
final class Chromium {
    private Chromium() {}

    /** The driver's and the browser's paths. */
    record Paths2(Path driver, Path browser) {}

    static synchronized Paths2 ensure() throws IOException, InterruptedException {
        Path driver = find("chromedriver");
        Path browser = find("chromium");
        if (driver == null || browser == null) {
            install();
            driver = find("chromedriver");
            browser = find("chromium");
        }
        if (driver == null || browser == null) {
            throw new IllegalStateException(
                    "the browser tests need Debian's chromium and chromium-driver: install them"
                            + " (apt-get install chromium chromium-driver); the build installs"
                            + " them itself only when it runs as root");
        }
        return new Paths2(driver, browser);
    }

    private static void install() throws IOException, InterruptedException {
        if (!"root".equals(System.getProperty("user.name")) || find("apt-get") == null) {
            return;
        }
        System.out.println("browser tests: installing chromium and chromium-driver (apt-get)");
        run(List.of("apt-get", "update", "-qq"));
        run(List.of("apt-get", "install", "-y", "-qq", "chromium", "chromium-driver"));
    }

    private static void run(List<String> cmd) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
        p.getOutputStream().close();
        if (!p.waitFor(15, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
    }

    private static Path find(String name) {
        for (String dir :
                System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path p = Paths.get(dir, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        Path usr = Paths.get("/usr/bin", name);
        return Files.isExecutable(usr) ? usr : null;
    }
}
