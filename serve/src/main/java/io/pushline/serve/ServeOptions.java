package io.pushline.serve;

import io.pushline.common.CommonOptions;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/** Options of {@code ./pushline serve}, besides Kafka's and HBase's. */
public final class ServeOptions {
    private ServeOptions() {}

    public static final ConfigOption<Integer> PORT =
            ConfigOptions.key("serve.port")
                    .intType()
                    .defaultValue(8080)
                    .withDescription("HTTP port (also --port); 0 picks a free one.");

    public static final ConfigOption<String> HOST =
            ConfigOptions.key("serve.host")
                    .stringType()
                    .defaultValue("0.0.0.0")
                    .withDescription("Address to listen on.");

    public static final ConfigOption<Duration> PULL_WINDOW =
            ConfigOptions.key("serve.reminders.pull-window")
                    .durationType()
                    .defaultValue(Duration.ofHours(24))
                    .withDescription(
                            "GET /v1/reminders/{uid} lists the frozen tasks the uid subscribed to"
                                    + " that fire within this long from now.");

    public static final ConfigOption<Duration> PULL_MARGIN =
            ConfigOptions.key("serve.reminders.pull-margin")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription(
                            "A task firing sooner than this is no longer listed: its pull would"
                                    + " reach the dispatch job after it fired, and the user would"
                                    + " get both the app's reminder and the push.");

    public static final ConfigOption<MemorySize> INBOX_CACHE =
            ConfigOptions.key("serve.inbox.cache")
                    .memoryType()
                    .defaultValue(MemorySize.parse("1 gb"))
                    .withDescription(
                            "Inbox rows held in memory, kept fresh from inbox.changes (a change"
                                    + " the dispatch job writes is served a moment later): a read"
                                    + " of a held inbox needs no HBase round trip. At start the"
                                    + " server scans the inbox table into it and reads from HBase"
                                    + " meanwhile; a row costs about 120 bytes besides its"
                                    + " bitmaps. Inboxes beyond it are read from HBase. 0 turns"
                                    + " the cache off.");

    public static final ConfigOption<String> CONSOLE_TOKEN =
            ConfigOptions.key("serve.console.token")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The token of the strategists' console (/console) and its API"
                                    + " (/v1/audiences/...): the login form asks for it, scripts"
                                    + " send it as 'Authorization: Bearer TOKEN'. Unset: the server"
                                    + " makes a random one at start and writes it to"
                                    + " console.token in the Pushline home (.pushline), readable"
                                    + " by its owner only. Never logged.");

    public static final ConfigOption<String> APP_KEYS =
            ConfigOptions.key("serve.app-keys")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A file of the app backends' keys, one a line: 'NAME SECRET"
                                    + " SCOPE[,SCOPE...]' (scopes: push, devices, reminders,"
                                    + " inbox, status; blank lines and # comments skipped). A"
                                    + " call sends 'Authorization: Bearer SECRET'. Unset: the"
                                    + " server makes one key with every scope and writes it to"
                                    + " app.key in the Pushline home (.pushline), readable by its"
                                    + " owner only; the API is never open. Secrets are never"
                                    + " logged.");

    public static final ConfigOption<String> APP_TOKEN =
            ConfigOptions.key("serve.app-token")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Deprecated: use serve.app-keys. One app key (named 'app') with every"
                                    + " scope; ignored when serve.app-keys is set.");

    public static final ConfigOption<Integer> APP_RATE =
            ConfigOptions.key("serve.app-rate")
                    .intType()
                    .defaultValue(1_000)
                    .withDescription(
                            "Calls a second each app key may make on this server; past it the"
                                    + " answer is 429 with Retry-After and nothing is written.");

    public static final ConfigOption<String> TLS_KEYSTORE =
            ConfigOptions.key("serve.tls.keystore")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A PKCS#12 (or JKS) keystore with the server's key and certificate:"
                                    + " the server then answers HTTPS only (TLS 1.2 and 1.3) and"
                                    + " marks the console's cookie Secure. Unset: plain HTTP, for"
                                    + " a server behind a TLS-terminating proxy.");

    public static final ConfigOption<String> TLS_KEYSTORE_PASSWORD =
            ConfigOptions.key("serve.tls.keystore-password")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The keystore's password; give it as ${file:PATH} or ${env:NAME} so"
                                    + " that it never shows in a process list. Never logged.");

    public static final ConfigOption<String> DISPATCH_CHECKPOINTS =
            ConfigOptions.key("serve.console.dispatch-checkpoints")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Where the dispatch job's retained checkpoints are (its"
                                    + " execution.checkpointing.dir, a job's folder or one"
                                    + " chk-N): the console's dry run reads the gate's state from"
                                    + " the newest complete checkpoint under it. Unset: the"
                                    + " folder the running demo or './pushline run dispatch'"
                                    + " wrote into local.env.");

    public static final ConfigOption<String> S3_ENDPOINT =
            ConfigOptions.key("serve.console.s3.endpoint")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The S3 API endpoint of s3:// checkpoints in"
                                    + " serve.console.dispatch-checkpoints, for an S3 API other"
                                    + " than AWS (MinIO, Ceph, s3proxy: the jobs' s3.endpoint)."
                                    + " Unset: AWS. The credentials come from AWS_ACCESS_KEY_ID"
                                    + " and AWS_SECRET_ACCESS_KEY or the machine's IAM role.");

    public static final ConfigOption<Boolean> S3_PATH_STYLE =
            ConfigOptions.key("serve.console.s3.path-style-access")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Address the checkpoints' bucket in the path (endpoint/bucket/key)"
                                    + " instead of the host name, as most S3 APIs other than AWS"
                                    + " need (the jobs' s3.path.style.access).");

    public static List<ConfigOption<?>> own() {
        return List.of(
                PORT,
                HOST,
                PULL_WINDOW,
                PULL_MARGIN,
                INBOX_CACHE,
                CONSOLE_TOKEN,
                APP_KEYS,
                APP_TOKEN,
                APP_RATE,
                TLS_KEYSTORE,
                TLS_KEYSTORE_PASSWORD,
                DISPATCH_CHECKPOINTS,
                S3_ENDPOINT,
                S3_PATH_STYLE);
    }

    public static List<ConfigOption<?>> accepted() {
        List<ConfigOption<?>> own = new java.util.ArrayList<>(own());
        own.addAll(io.pushline.inbox.InboxOptions.all());
        return CommonOptions.with(own);
    }
}
