package io.pushline.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The S3 side of {@code ./pushline cluster up --s3}: s3proxy (a real S3 API server, here over files
 * under {@code data/s3}) with a generated access key and secret, and the environment that gives
 * them to Flink's S3 filesystem. The secret lives in two files of mode 0600 (the credentials and
 * s3proxy's properties) and reaches the Flink processes as the AWS SDK's environment variables,
 * never as an argument or a configuration entry, so it shows neither in {@code ps} nor in Flink's
 * web UI.
 */
final class S3Store {
    static final String ACCESS_KEY_ENV = "AWS_ACCESS_KEY_ID";
    static final String SECRET_KEY_ENV = "AWS_SECRET_ACCESS_KEY";

    private final ClusterLayout layout;

    S3Store(ClusterLayout layout) {
        this.layout = layout;
    }

    /** Marks the cluster as one on S3 and makes its credentials once. */
    void enable() throws IOException {
        Files.createDirectories(layout.home());
        if (!Files.isRegularFile(layout.s3Credentials())) {
            SecureRandom random = new SecureRandom();
            String key = "pushline" + HexFormat.of().formatHex(random.generateSeed(6));
            byte[] secret = new byte[24];
            random.nextBytes(secret);
            Properties p = new Properties();
            p.setProperty(ACCESS_KEY_ENV, key);
            p.setProperty(SECRET_KEY_ENV, HexFormat.of().formatHex(secret));
            writePrivate(layout.s3Credentials(), format(p, "S3 credentials of s3proxy"));
        }
        Files.writeString(
                layout.s3Marker(),
                "written by ./pushline cluster up --s3: checkpoints, savepoints and HA metadata"
                        + " on s3proxy\n");
    }

    /** The variables that give the Flink processes and Flink's client the credentials. */
    Map<String, String> environment() throws IOException {
        Properties p = credentials();
        Map<String, String> env = new LinkedHashMap<>();
        env.put(ACCESS_KEY_ENV, p.getProperty(ACCESS_KEY_ENV));
        env.put(SECRET_KEY_ENV, p.getProperty(SECRET_KEY_ENV));
        env.put("FLINK_PLUGINS_DIR", layout.flinkPluginsDir().toString());
        return env;
    }

    /** s3proxy's properties (with the secret, so mode 0600) and its bucket's folder. */
    Path writeProxyConfig() throws IOException {
        Path base = layout.data().resolve("s3");
        // The filesystem provider keeps a bucket as a folder of its base directory.
        Files.createDirectories(base.resolve(ClusterLayout.S3_BUCKET));
        Properties c = credentials();
        Properties p = new Properties();
        p.setProperty("s3proxy.endpoint", layout.s3Endpoint());
        p.setProperty("s3proxy.authorization", "aws-v2-or-v4");
        p.setProperty("s3proxy.identity", c.getProperty(ACCESS_KEY_ENV));
        p.setProperty("s3proxy.credential", c.getProperty(SECRET_KEY_ENV));
        p.setProperty("jclouds.provider", "filesystem");
        p.setProperty("jclouds.filesystem.basedir", base.toString());
        Path file = layout.conf().resolve("s3proxy.properties");
        writePrivate(file, format(p, "s3proxy, written by ./pushline cluster up --s3"));
        Path logback = layout.conf().resolve("s3proxy-logback.xml");
        Files.writeString(logback, LOGBACK, StandardCharsets.UTF_8);
        return file;
    }

    /** {@code java} arguments of the s3proxy process. */
    List<String> proxyCommand(Path properties) {
        return List.of("org.gaul.s3proxy.Main", "--properties", properties.toString());
    }

    private Properties credentials() throws IOException {
        if (!Files.isRegularFile(layout.s3Credentials())) {
            throw new IllegalStateException(
                    layout.s3Credentials() + " is missing: run ./pushline cluster up --s3");
        }
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(layout.s3Credentials())) {
            p.load(in);
        }
        return p;
    }

    private static String format(Properties p, String comment) {
        StringBuilder out = new StringBuilder("# ").append(comment).append('\n');
        p.stringPropertyNames().stream()
                .sorted()
                .forEach(k -> out.append(k).append('=').append(p.getProperty(k)).append('\n'));
        return out.toString();
    }

    private static void writePrivate(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(
                file,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** s3proxy logs through logback: INFO to its log file instead of DEBUG to the console. */
    private static final String LOGBACK =
            String.join(
                    "\n",
                    "<configuration>",
                    "  <appender name=\"file\" class=\"ch.qos.logback.core.FileAppender\">",
                    "    <file>${log.file}</file>",
                    "    <encoder><pattern>%d %-5level [%thread] %logger %msg%n</pattern></encoder>",
                    "  </appender>",
                    "  <root level=\"INFO\"><appender-ref ref=\"file\"/></root>",
                    "  <logger name=\"org.eclipse.jetty\" level=\"WARN\"/>",
                    "</configuration>",
                    "");
}
