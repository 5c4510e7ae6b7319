package io.pushline.gateway;

import io.pushline.common.CommonOptions;
import io.pushline.common.OptionsParser;
import io.pushline.schema.Vendor;
import io.pushline.vendors.VendorSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * The gateway's options, all under {@code gateway.}: which vendors it serves, each vendor's
 * endpoints and credentials ({@code gateway.<vendor>.*}; secrets as {@code ${env:..}} or {@code
 * ${file:..}}), and how it calls them.
 */
public final class GatewayOptions {
    private GatewayOptions() {}

    /** The vendors with an API (the long connection is the app's own: the longconn job's). */
    public static final List<Vendor> VENDORS =
            List.of(
                    Vendor.APNS,
                    Vendor.FCM,
                    Vendor.HUAWEI,
                    Vendor.HONOR,
                    Vendor.XIAOMI,
                    Vendor.OPPO,
                    Vendor.VIVO);

    public static final ConfigOption<List<String>> ENABLED =
            ConfigOptions.key("gateway.vendors")
                    .stringType()
                    .asList()
                    .defaultValues("apns", "fcm", "huawei", "honor", "xiaomi", "oppo", "vivo")
                    .withDescription(
                            "The vendors this gateway sends to, each from its own topic"
                                    + " push.vendor.<vendor> with its own source, so a slow vendor"
                                    + " holds back only itself. Each needs its credentials.");

    public static final ConfigOption<Integer> MAX_IN_FLIGHT =
            ConfigOptions.key("gateway.max-in-flight")
                    .intType()
                    .defaultValue(128)
                    .withDescription(
                            "Calls in flight per vendor and subtask (Flink async I/O's capacity): a"
                                    + " call is one send (APNs, FCM) or up to 1,000 sends of one"
                                    + " message (the others). When all are taken, the vendor's"
                                    + " source waits.");

    public static final ConfigOption<Duration> CALL_TIMEOUT =
            ConfigOptions.key("gateway.call-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription("One call's timeout (connect and answer).");

    public static final ConfigOption<Integer> RETRIES =
            ConfigOptions.key("gateway.retries")
                    .intType()
                    .defaultValue(3)
                    .withDescription(
                            "Calls again after a 5xx, a timeout or a throttle, at most this many"
                                    + " times; then the send is a failed receipt with the vendor's"
                                    + " last code.");

    public static final ConfigOption<Duration> BACKOFF =
            ConfigOptions.key("gateway.backoff")
                    .durationType()
                    .defaultValue(Duration.ofMillis(200))
                    .withDescription(
                            "Wait before the first retry after a 5xx or timeout; doubled for each"
                                    + " next, with jitter. After a throttle the vendor's"
                                    + " Retry-After is waited instead.");

    public static final ConfigOption<Duration> LINGER =
            ConfigOptions.key("gateway.linger")
                    .durationType()
                    .defaultValue(Duration.ofMillis(5))
                    .withDescription(
                            "How long sends of one message wait for more of the same message to"
                                    + " share a multi-token call; a checkpoint barrier sends what"
                                    + " waits at once.");

    public static final ConfigOption<Integer> APNS_CONNECTIONS =
            ConfigOptions.key("gateway.apns.connections")
                    .intType()
                    .defaultValue(2)
                    .withDescription("HTTP/2 connections to APNs per subtask.");

    public static final ConfigOption<String> GROUP_ID =
            ConfigOptions.key("gateway.group-id")
                    .stringType()
                    .defaultValue("pushline-gateway")
                    .withDescription("Consumer group of the gateway on the vendor topics.");

    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX =
            ConfigOptions.key("gateway.transactional-id-prefix")
                    .stringType()
                    .defaultValue("pushline-gateway")
                    .withDescription(
                            "Prefix of the Kafka transactional ids of the job's exactly-once"
                                    + " sinks; unique per job on one Kafka cluster.");

    public static final ConfigOption<Boolean> ANSWERED_LOG =
            ConfigOptions.key("gateway.answered-log")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Log every vendor answer at once to the topic gateway.answered (not in"
                                    + " the checkpoint's transaction) and, after a restore, answer the"
                                    + " sends logged since the checkpoint from it instead of calling"
                                    + " the vendor again: a restore then resends only the calls that"
                                    + " were in flight. Off: every send answered since the last"
                                    + " checkpoint is sent again (made harmless by the collapse ids).");

    public static final ConfigOption<Integer> MAX_PARALLELISM =
            ConfigOptions.key("gateway.max-parallelism")
                    .intType()
                    .defaultValue(720)
                    .withDescription("Maximum parallelism of the job's operators.");

    /** One vendor's endpoint and credential options. */
    record VendorKeys(
            ConfigOption<String> url,
            ConfigOption<String> authUrl,
            ConfigOption<String> appId,
            ConfigOption<String> appKey,
            ConfigOption<String> secret,
            ConfigOption<String> credentials,
            ConfigOption<String> trustedCert) {
        List<ConfigOption<?>> all() {
            return List.of(url, authUrl, appId, appKey, secret, credentials, trustedCert);
        }
    }

    static final Map<Vendor, VendorKeys> KEYS = keys();

    private static Map<Vendor, VendorKeys> keys() {
        Map<Vendor, VendorKeys> m = new EnumMap<>(Vendor.class);
        m.put(
                Vendor.APNS,
                vendor(
                        "apns",
                        "https://api.push.apple.com:443",
                        null,
                        "the app's bundle id (the apns-topic)",
                        "the signing key's id",
                        "the team id",
                        "the .p8 signing key file"));
        m.put(
                Vendor.FCM,
                vendor(
                        "fcm",
                        "https://fcm.googleapis.com",
                        null,
                        "the Firebase project id (unset: the service account's)",
                        null,
                        null,
                        "the service-account JSON file (its token_uri is the token endpoint)"));
        m.put(
                Vendor.HUAWEI,
                vendor(
                        "huawei",
                        "https://push-api.cloud.huawei.com",
                        "https://oauth-login.cloud.huawei.com",
                        "the app id (OAuth client id)",
                        null,
                        "the app secret (OAuth client secret)",
                        null));
        m.put(
                Vendor.HONOR,
                vendor(
                        "honor",
                        "https://push-api.cloud.honor.com",
                        "https://iam.developer.honor.com",
                        "the app id (OAuth client id)",
                        null,
                        "the client secret",
                        null));
        m.put(
                Vendor.XIAOMI,
                vendor(
                        "xiaomi",
                        "https://api.xmpush.xiaomi.com",
                        null,
                        "the app's package name (restricted_package_name)",
                        null,
                        "the AppSecret",
                        null));
        m.put(
                Vendor.OPPO,
                vendor(
                        "oppo",
                        "https://api.push.oppomobile.com",
                        null,
                        null,
                        "the AppKey",
                        "the MasterSecret",
                        null));
        m.put(
                Vendor.VIVO,
                vendor(
                        "vivo",
                        "https://api-push.vivo.com.cn",
                        null,
                        "the app id",
                        "the AppKey",
                        "the AppSecret",
                        null));
        return m;
    }

    private static VendorKeys vendor(
            String v,
            String url,
            String authUrl,
            String appId,
            String appKey,
            String secret,
            String credentials) {
        String p = "gateway." + v + ".";
        return new VendorKeys(
                string(
                        p + "url",
                        url,
                        "Base URL of "
                                + v
                                + "'s send API"
                                + ("apns".equals(v)
                                        ? "."
                                        : " (an http:// URL is spoken HTTP/2 cleartext, h2c).")),
                string(
                        p + "auth-url",
                        authUrl,
                        authUrl == null
                                ? "Base URL of "
                                        + v
                                        + "'s token endpoint, where it differs from"
                                        + " the send API's (unused by "
                                        + v
                                        + ")."
                                : "Base URL of " + v + "'s token endpoint."),
                string(p + "app-id", null, describe(v, appId)),
                string(p + "app-key", null, describe(v, appKey)),
                string(
                        p + "secret",
                        null,
                        describe(v, secret)
                                + (secret == null
                                        ? ""
                                        : " Give it as ${env:NAME} or ${file:PATH}.")),
                string(p + "credentials", null, describe(v, credentials)),
                string(
                        p + "trusted-cert",
                        null,
                        "A PEM file of the only certificates to trust for "
                                + v
                                + " (an emulator's); unset: the system's."));
    }

    private static String describe(String v, String what) {
        return what == null ? "Unused by " + v + "." : v + ": " + what + ".";
    }

    private static ConfigOption<String> string(String key, String dflt, String description) {
        return dflt == null
                ? ConfigOptions.key(key).stringType().noDefaultValue().withDescription(description)
                : ConfigOptions.key(key)
                        .stringType()
                        .defaultValue(dflt)
                        .withDescription(description);
    }

    /** This job's own options. */
    public static List<ConfigOption<?>> own() {
        List<ConfigOption<?>> all =
                new ArrayList<>(
                        List.of(
                                ENABLED,
                                MAX_IN_FLIGHT,
                                CALL_TIMEOUT,
                                RETRIES,
                                BACKOFF,
                                LINGER,
                                APNS_CONNECTIONS,
                                GROUP_ID,
                                TRANSACTIONAL_ID_PREFIX,
                                ANSWERED_LOG,
                                MAX_PARALLELISM));
        for (Vendor v : VENDORS) {
            all.addAll(KEYS.get(v).all());
        }
        return all;
    }

    public static List<ConfigOption<?>> accepted() {
        return CommonOptions.with(own());
    }

    /** The option key of vendor {@code v}'s setting {@code name} (url, app-id, secret ...). */
    public static String key(Vendor v, String name) {
        return "gateway." + v.wireName() + "." + name;
    }

    /**
     * The enabled vendors' settings, checked: an unknown vendor or a missing credential stops
     * start-up with the key named.
     */
    public static List<VendorSettings> vendors(Configuration o) {
        List<VendorSettings> out = new ArrayList<>();
        for (String name : o.get(ENABLED)) {
            Vendor v = Vendor.fromWire(name.trim().toLowerCase(Locale.ROOT));
            if (v == null || !VENDORS.contains(v)) {
                throw new OptionsParser.InvalidOptionException(
                        ENABLED.key()
                                + ": '"
                                + name
                                + "' is not a vendor with an API (one of"
                                + " apns, fcm, huawei, honor, xiaomi, oppo, vivo)");
            }
            VendorKeys k = KEYS.get(v);
            VendorSettings s =
                    new VendorSettings(
                            v,
                            o.get(k.url()),
                            o.get(k.authUrl()),
                            o.get(k.appId()),
                            o.get(k.appKey()),
                            o.get(k.secret()),
                            o.get(k.credentials()),
                            o.get(k.trustedCert()),
                            o.get(CALL_TIMEOUT).toMillis());
            for (ConfigOption<String> needed : required(v, k)) {
                String value = o.get(needed);
                if (value == null || value.isBlank()) {
                    throw new OptionsParser.InvalidOptionException(
                            needed.key()
                                    + " is required to send to "
                                    + v.wireName()
                                    + " (or leave "
                                    + v.wireName()
                                    + " out of "
                                    + ENABLED.key()
                                    + ")");
                }
            }
            out.add(s);
        }
        return out;
    }

    private static List<ConfigOption<String>> required(Vendor v, VendorKeys k) {
        switch (v) {
            case APNS:
                return List.of(k.appId(), k.appKey(), k.secret(), k.credentials());
            case FCM:
                return List.of(k.credentials());
            case XIAOMI:
                return List.of(k.appId(), k.secret());
            case OPPO:
                return List.of(k.appKey(), k.secret());
            default:
                return v == Vendor.VIVO
                        ? List.of(k.appId(), k.appKey(), k.secret())
                        : List.of(k.appId(), k.secret());
        }
    }
}
