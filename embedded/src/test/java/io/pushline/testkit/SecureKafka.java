package io.pushline.testkit;

import io.pushline.local.EmbeddedKafka;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;

/**
 * The embedded broker with a listener that takes clients only over TLS with SASL/SCRAM-SHA-512: a
 * key pair made with {@code keytool} for the run, a SCRAM user created through the admin API, and
 * the user's password in a file, as a Kubernetes Secret mounts it.
 */
public final class SecureKafka implements AutoCloseable {
    public static final String USER = "pushline";
    private static final String STORE_PASSWORD = "changeit";

    private final EmbeddedKafka kafka;
    private final String bootstrap;
    private final Path truststore;
    private final Path passwordFile;
    private final Path storePasswordFile;

    private SecureKafka(
            EmbeddedKafka kafka,
            String bootstrap,
            Path truststore,
            Path passwordFile,
            Path storePasswordFile) {
        this.kafka = kafka;
        this.bootstrap = bootstrap;
        this.truststore = truststore;
        this.passwordFile = passwordFile;
        this.storePasswordFile = storePasswordFile;
    }

    public static SecureKafka start(Path dir, String password) throws Exception {
        Files.createDirectories(dir);
        Path keystore = dir.resolve("broker.p12");
        Path truststore = dir.resolve("trust.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "broker",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                STORE_PASSWORD,
                "-keypass",
                STORE_PASSWORD);
        Path cert = dir.resolve("broker.crt");
        keytool(
                "-exportcert",
                "-alias",
                "broker",
                "-keystore",
                keystore.toString(),
                "-storepass",
                STORE_PASSWORD,
                "-storetype",
                "PKCS12",
                "-file",
                cert.toString());
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "broker",
                "-file",
                cert.toString(),
                "-storetype",
                "PKCS12",
                "-keystore",
                truststore.toString(),
                "-storepass",
                STORE_PASSWORD);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> broker = new HashMap<>();
        broker.put(
                "listeners",
                "EXTERNAL://localhost:0,CONTROLLER://localhost:0,SECURE://localhost:" + port);
        broker.put(
                "listener.security.protocol.map",
                "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,SECURE:SASL_SSL");
        broker.put("listener.name.secure.sasl.enabled.mechanisms", "SCRAM-SHA-512");
        broker.put(
                "listener.name.secure.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        broker.put("listener.name.secure.ssl.keystore.location", keystore.toString());
        broker.put("listener.name.secure.ssl.keystore.password", STORE_PASSWORD);
        broker.put("listener.name.secure.ssl.key.password", STORE_PASSWORD);
        broker.put("listener.name.secure.ssl.keystore.type", "PKCS12");
        EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), broker);
        try (Admin admin = kafka.admin()) {
            admin.alterUserScramCredentials(
                            List.of(
                                    new UserScramCredentialUpsertion(
                                            USER,
                                            new ScramCredentialInfo(
                                                    ScramMechanism.SCRAM_SHA_512, 4096),
                                            password)))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        }
        Path passwordFile = dir.resolve("kafka-password");
        Files.writeString(passwordFile, password + "\n");
        Path storePasswordFile = dir.resolve("truststore-password");
        Files.writeString(storePasswordFile, STORE_PASSWORD);
        return new SecureKafka(
                kafka, "localhost:" + port, truststore, passwordFile, storePasswordFile);
    }

    /** The broker's plaintext side (topics, admin). */
    public EmbeddedKafka broker() {
        return kafka;
    }

    /** The TLS + SASL listener. */
    public String bootstrap() {
        return bootstrap;
    }

    /** The user's password file: what {@code ${file:..}} names. */
    public Path passwordFile() {
        return passwordFile;
    }

    /**
     * A client's settings with the password given as is (for the test's own clients, or a wrong
     * one).
     */
    public Map<String, String> client(String password) {
        return settings(password, STORE_PASSWORD);
    }

    /**
     * A job's settings as a user writes them: the passwords as {@code ${file:..}} references, never
     * the values.
     */
    public Map<String, String> clientWithPasswordFiles() {
        return settings("${file:" + passwordFile + "}", "${file:" + storePasswordFile + "}");
    }

    /** {@link #clientWithPasswordFiles} as {@code --kafka.properties.NAME VALUE} arguments. */
    public List<String> jobArguments() {
        List<String> args = new ArrayList<>();
        clientWithPasswordFiles()
                .forEach(
                        (k, v) -> {
                            args.add("--kafka.properties." + k);
                            args.add(v);
                        });
        return args;
    }

    private Map<String, String> settings(String password, String storePassword) {
        Map<String, String> p = new HashMap<>();
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\""
                        + USER
                        + "\" password=\""
                        + password
                        + "\";");
        p.put("ssl.truststore.location", truststore.toString());
        p.put("ssl.truststore.password", storePassword);
        p.put("ssl.truststore.type", "PKCS12");
        return p;
    }

    /** Client properties for the secure listener. */
    public Properties props(Map<String, String> client) {
        Properties p = new Properties();
        p.putAll(client);
        p.put("bootstrap.servers", bootstrap);
        return p;
    }

    @Override
    public void close() throws Exception {
        kafka.close();
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + out);
        }
    }
}
