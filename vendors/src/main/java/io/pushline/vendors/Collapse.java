package io.pushline.vendors;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What makes a resend harmless: every vendor is given an id derived from the msgId under which a
 * second copy replaces the first on the device (APNs {@code apns-collapse-id}, FCM {@code
 * collapse_key} and {@code tag}, Huawei's {@code tag}, Honor's and Xiaomi's notify id, OPPO's
 * {@code app_message_id}, vivo's {@code requestId}). After a restore the gateway may call again for
 * sends that were in flight at the checkpoint; with these ids the user sees one notification.
 */
public final class Collapse {
    private Collapse() {}

    /** APNs allows 64 bytes; longer msgIds are hashed. */
    static final int MAX_ID_BYTES = 64;

    /** The msgId itself when short enough, else a stable hash of it (hex, 64 characters). */
    public static String id(String msgId) {
        byte[] b = msgId.getBytes(StandardCharsets.UTF_8);
        return b.length <= MAX_ID_BYTES ? msgId : HexFormat.of().formatHex(sha256(b));
    }

    /** A positive int from the msgId, for vendors whose collapse id is a number. */
    public static int number(String msgId) {
        byte[] h = sha256(msgId.getBytes(StandardCharsets.UTF_8));
        int v =
                ((h[0] & 0x7F) << 24)
                        | ((h[1] & 0xFF) << 16)
                        | ((h[2] & 0xFF) << 8)
                        | (h[3] & 0xFF);
        return v == 0 ? 1 : v;
    }

    static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hex(String algorithm, String text) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance(algorithm)
                                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
