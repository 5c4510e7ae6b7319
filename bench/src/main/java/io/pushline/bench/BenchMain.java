package io.pushline.bench;

import io.pushline.common.Cli;

/**
 * Entry point of {@code ./pushline bench ...}: the launcher runs it with the bench module's
 * classpath.
 */
public final class BenchMain {
    private BenchMain() {}

    public static void main(String[] args) {
        Cli.main(new Benches(), args);
    }
}
