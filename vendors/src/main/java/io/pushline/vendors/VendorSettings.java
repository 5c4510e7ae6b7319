package io.pushline.vendors;

import io.pushline.schema.Vendor;
import java.io.Serializable;

/**
 * Where and as whom the gateway calls one vendor. Secrets arrive resolved (the options take {@code
 * ${env:..}} and {@code ${file:..}}); {@link #toString} never shows them.
 *
 * @param url the send API's base URL (scheme, host, port), e.g. {@code
 *     https://push-api.cloud.huawei.com}
 * @param authUrl the token endpoint's base URL where the vendor has one (else ignored)
 * @param appId the vendor's app id (FCM: the Firebase project id; APNs: the bundle id)
 * @param appKey the app key where the vendor signs with one (OPPO, vivo; APNs: the key id)
 * @param secret the app secret (Huawei, Honor client secret; Xiaomi AppSecret; OPPO master secret;
 *     vivo app secret; APNs: the team id)
 * @param credentials a credentials file: FCM's service-account JSON, APNs' .p8 signing key
 * @param trustedCert a PEM file of certificates to trust instead of the system's (emulators)
 * @param timeoutMs one call's timeout
 */
public record VendorSettings(
        Vendor vendor,
        String url,
        String authUrl,
        String appId,
        String appKey,
        String secret,
        String credentials,
        String trustedCert,
        long timeoutMs)
        implements Serializable {

    /** The base URL without a trailing slash. */
    String base() {
        return strip(url);
    }

    String authBase() {
        return strip(authUrl == null || authUrl.isEmpty() ? url : authUrl);
    }

    private static String strip(String u) {
        return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
    }

    @Override
    public String toString() {
        return vendor.wireName()
                + " at "
                + url
                + (appId == null ? "" : " (app " + appId + ")")
                + ", timeout "
                + timeoutMs
                + " ms";
    }
}
