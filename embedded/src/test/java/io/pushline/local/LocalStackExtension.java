package io.pushline.local;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Shares one {@link LocalStack} between all integration tests of a test JVM: started by the first
 * test class that registers the extension, stopped when the JVM's test run ends. Its folder is
 * {@code target/pushline-stack} of the module (system property {@code pushline.stack.dir}; an
 * HBase-only stack's that name with {@code -hbase}), the start-up timeout {@code
 * pushline.stack.start-timeout} seconds (default 180).
 *
 * <pre>
 * {@code @RegisterExtension static final LocalStackExtension STACK = new LocalStackExtension();}
 * {@code @RegisterExtension static final LocalStackExtension STACK = LocalStackExtension.hbaseOnly();}
 * </pre>
 */
public final class LocalStackExtension implements BeforeAllCallback {
    private static final ExtensionContext.Namespace NS =
            ExtensionContext.Namespace.create(LocalStackExtension.class);

    private final boolean withKafka;
    private LocalStack stack;

    /** Kafka and HBase. */
    public LocalStackExtension() {
        this(true);
    }

    private LocalStackExtension(boolean withKafka) {
        this.withKafka = withKafka;
    }

    /**
     * HBase alone, for tests that use no Kafka: a broker's start-up and idle threads cost some 5
     * CPU-seconds a test JVM, which a 2-core build pays in wall time.
     */
    public static LocalStackExtension hbaseOnly() {
        return new LocalStackExtension(false);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        stack =
                context.getRoot()
                        .getStore(NS)
                        .getOrComputeIfAbsent(
                                withKafka ? "stack" : "hbase-only-stack",
                                k -> start(withKafka),
                                Resource.class)
                        .stack;
    }

    public LocalStack get() {
        if (stack == null) {
            throw new IllegalStateException("register LocalStackExtension as a static field");
        }
        return stack;
    }

    private static Resource start(boolean withKafka) {
        Path dir = Paths.get(System.getProperty("pushline.stack.dir", "target/pushline-stack"));
        Duration timeout = Duration.ofSeconds(Long.getLong("pushline.stack.start-timeout", 180L));
        try {
            return new Resource(
                    withKafka
                            ? LocalStack.start(dir, timeout)
                            : LocalStack.startHBaseOnly(
                                    dir.resolveSibling(dir.getFileName() + "-hbase"), timeout));
        } catch (Exception e) {
            throw new IllegalStateException("could not start the local stack: " + e, e);
        }
    }

    @SuppressWarnings("deprecation") // AutoCloseable store values arrive with JUnit 5.13
    static final class Resource implements ExtensionContext.Store.CloseableResource {
        final LocalStack stack;

        Resource(LocalStack stack) {
            this.stack = stack;
        }

        @Override
        public void close() {
            stack.close();
        }
    }
}
