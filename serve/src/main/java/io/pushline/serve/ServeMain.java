package io.pushline.serve;

import io.pushline.common.Cli;
import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.KafkaIO;
import io.pushline.common.LocalEnv;
import io.pushline.common.UsageException;
import io.pushline.inbox.InboxOptions;
import io.pushline.inbox.InboxStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Starting the HTTP API for app backends and the console: the entry of {@code ./pushline serve}
 * (see {@link ServeCommand}) and the server {@code ./pushline demo --keep} starts.
 */
public final class ServeMain {
    private ServeMain() {}

    public static void main(String[] args) {
        // The launcher passes the command's name on: ./pushline serve ARGS.
        String[] own =
                args.length > 0 && args[0].equals("serve")
                        ? Arrays.copyOfRange(args, 1, args.length)
                        : args;
        Cli.main(Cli.commandLine(new ServeCommand()).setCommandName("pushline serve"), own);
    }

    /**
     * A server that is up: its port, where its console token is (the option, or the file it was
     * written to), and how to stop it.
     */
    public record Running(
            int port,
            String tokenNote,
            String keyNote,
            Server server,
            InboxChangeFeed feed,
            Connection hbase)
            implements AutoCloseable {
        @Override
        public void close() {
            try {
                if (feed != null) {
                    feed.close();
                }
                server.close();
                hbase.close();
            } catch (Exception e) {
                // stopping anyway
            }
        }
    }

    /**
     * Starts the app API and the console with {@code conf} (the keys of {@link
     * ServeOptions#accepted()}); an unset console token is made up and written to {@code
     * home/console.token}. {@code ./pushline serve} and {@code ./pushline demo --keep} start it so.
     */
    public static Running start(Configuration conf, Path home) throws Exception {
        String bootstrap = conf.get(CommonOptions.KAFKA_BOOTSTRAP);
        String quorum = HBaseTables.address(conf);
        if (bootstrap == null || quorum == null || quorum.isBlank()) {
            throw new UsageException(
                    "serve needs Kafka and HBase: run ./pushline local up, or give --"
                            + CommonOptions.KAFKA_BOOTSTRAP.key()
                            + " and --"
                            + CommonOptions.HBASE_ZK_QUORUM.key());
        }
        int port = conf.get(ServeOptions.PORT);
        if (port < 0 || port > 65_535) {
            throw new UsageException("option 'serve.port' must be 0-65535, got " + port);
        }
        int rate = conf.get(ServeOptions.APP_RATE);
        if (rate < 1) {
            throw new UsageException("option 'serve.app-rate' must be at least 1, got " + rate);
        }
        String keyNote;
        AppKeys keys;
        String keysFile = conf.get(ServeOptions.APP_KEYS);
        String legacy = conf.get(ServeOptions.APP_TOKEN);
        if (keysFile != null && !keysFile.isBlank()) {
            keys = AppKeys.load(Paths.get(keysFile));
            keyNote = "the keys of " + keysFile;
        } else if (legacy != null && !legacy.isBlank()) {
            keys = AppKeys.single("app", legacy);
            keyNote = "the key of serve.app-token (deprecated: use serve.app-keys)";
        } else {
            String secret = ConsoleAccess.newToken();
            Path file = home.resolve("app.key");
            writePrivate(file, secret);
            keys = AppKeys.single("app", secret);
            keyNote = "the key in " + file + " (every scope)";
        }
        String keystore = conf.get(ServeOptions.TLS_KEYSTORE);
        if (keystore != null) {
            Tls.check(Paths.get(keystore));
        }
        Connection hbase = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
        try {
            Properties kafka = KafkaIO.clientProperties(conf);
            kafka.setProperty("bootstrap.servers", bootstrap);
            String namespace = conf.get(CommonOptions.HBASE_NAMESPACE);
            // Jobs create the tables as they start; the server may come first (a fresh stack).
            HBaseTables.ensure(hbase, namespace);
            ReminderStore store = new HBaseReminderStore(hbase, namespace);
            InboxStore inbox =
                    new InboxStore(
                            hbase,
                            namespace,
                            InboxOptions.retention(conf),
                            System::currentTimeMillis);
            String token = conf.get(ServeOptions.CONSOLE_TOKEN);
            String tokenNote = "the token of serve.console.token";
            if (token == null || token.isBlank()) {
                token = ConsoleAccess.newToken();
                Path file = home.resolve("console.token");
                writePrivate(file, token);
                tokenNote = "the token in " + file;
            }
            Server server =
                    Server.builder()
                            .reminders(store)
                            .inbox(inbox, new KafkaReadLog(kafka))
                            .pull(
                                    conf.get(ServeOptions.PULL_MARGIN),
                                    conf.get(ServeOptions.PULL_WINDOW))
                            .appKeys(keys)
                            .appRate(rate)
                            .kafkaWrites(kafka, hbase, namespace)
                            .receipts(hbase, namespace)
                            .tls(
                                    keystore == null ? null : Paths.get(keystore),
                                    conf.get(ServeOptions.TLS_KEYSTORE_PASSWORD))
                            .console(
                                    token,
                                    hbase,
                                    namespace,
                                    new ProcessDryRunner(
                                            ProcessDryRunner.command(launcher()),
                                            dryRunOptions(conf, home),
                                            dryRunSecrets(conf)))
                            .build();
            long cacheBytes = conf.get(ServeOptions.INBOX_CACHE).getBytes();
            InboxChangeFeed feed =
                    cacheBytes > 0 ? InboxChangeFeed.attach(kafka, inbox, cacheBytes) : null;
            if (feed != null) {
                server.addMetrics(feed::prometheus);
            }
            int bound;
            try {
                bound = server.start(conf.get(ServeOptions.HOST), port);
            } catch (Exception e) {
                if (feed != null) {
                    feed.close();
                }
                server.close();
                throw e;
            }
            if (feed != null) {
                feed.start();
            }
            return new Running(bound, tokenNote, keyNote, server, feed, hbase);
        } catch (Exception e) {
            hbase.close();
            throw e;
        }
    }

    /** The launcher the dry run goes through: the one that started this server. */
    private static Path launcher() {
        String root = System.getenv("PUSHLINE_ROOT");
        return Paths.get(root != null ? root : ".").resolve("pushline");
    }

    /** What the dry run needs to find the same stack and the dispatch job's checkpoints. */
    static List<String> dryRunOptions(Configuration conf, Path home) throws IOException {
        List<String> out = new ArrayList<>();
        for (ConfigOption<?> o :
                List.of(
                        CommonOptions.KAFKA_BOOTSTRAP,
                        CommonOptions.HBASE_ZK_QUORUM,
                        CommonOptions.HBASE_NAMESPACE)) {
            Object v = conf.get(o);
            if (v != null) {
                out.add("--" + o.key());
                out.add(v.toString());
            }
        }
        String dir = conf.get(ServeOptions.DISPATCH_CHECKPOINTS);
        if (dir == null) {
            dir = LocalEnv.read(home).get("DISPATCH_CHECKPOINTS");
        }
        if (dir != null) {
            out.add("--checkpoints");
            out.add(dir);
        }
        // the Kafka and HBase security settings (TLS, SASL, Kerberos) as the server has them: by
        // reference to the child's environment, so that no secret shows in its command line
        int i = 0;
        for (String key : securityKeys(conf)) {
            out.add("--" + key);
            out.add("${env:" + SECRET_ENV + i++ + "}");
        }
        if (conf.get(ServeOptions.S3_ENDPOINT) != null) {
            out.add("--s3.endpoint");
            out.add(conf.get(ServeOptions.S3_ENDPOINT));
        }
        if (conf.get(ServeOptions.S3_PATH_STYLE)) {
            out.add("--s3.path.style.access");
            out.add("true");
        }
        return out;
    }

    static final String SECRET_ENV = "PUSHLINE_DRY_RUN_SETTING_";

    /** The server's Kafka and HBase client settings, in a stable order. */
    static List<String> securityKeys(Configuration conf) {
        List<String> keys = new ArrayList<>();
        for (String k : new java.util.TreeSet<>(conf.toMap().keySet())) {
            if (k.startsWith(CommonOptions.KAFKA_PROPERTIES_PREFIX)
                    || k.startsWith(CommonOptions.HBASE_PROPERTIES_PREFIX)) {
                keys.add(k);
            }
        }
        return keys;
    }

    /** The values {@link #dryRunOptions} refers to, as the child's environment. */
    static java.util.Map<String, String> dryRunSecrets(Configuration conf) {
        java.util.Map<String, String> env = new java.util.LinkedHashMap<>();
        int i = 0;
        for (String key : securityKeys(conf)) {
            env.put(SECRET_ENV + i++, conf.toMap().get(key));
        }
        return env;
    }

    /** Writes a secret readable by its owner only. */
    static void writePrivate(Path file, String secret) throws IOException {
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        try {
            Files.createFile(
                    file,
                    PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            Files.createFile(file);
        }
        Files.writeString(file, secret + "\n", StandardCharsets.UTF_8);
    }
}
