package io.pushline.vendors;

import com.eatthepath.pushy.apns.ApnsClientBuilder;
import com.eatthepath.pushy.apns.DeliveryPriority;
import com.eatthepath.pushy.apns.PushNotificationResponse;
import com.eatthepath.pushy.apns.PushType;
import com.eatthepath.pushy.apns.auth.ApnsSigningKey;
import com.eatthepath.pushy.apns.util.SimpleApnsPayloadBuilder;
import com.eatthepath.pushy.apns.util.SimpleApnsPushNotification;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Vendor;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Apple Push Notification service, the HTTP/2 provider API with token (.p8) authentication, through
 * Pushy: {@code appKey} is the key id, {@code secret} the team id, {@code appId} the topic (the
 * app's bundle id), {@code credentials} the .p8 file. One notification per call, many calls
 * multiplexed per connection. Rejections by APNs' reason: BadDeviceToken, Unregistered and
 * DeviceTokenNotForTopic are invalid tokens, TooManyRequests (429) a throttle, 5xx a retry. {@code
 * apns-collapse-id} is the msgId, {@code apns-id} a UUID of msgId and device, so a resend replaces
 * the first copy and carries the same id.
 */
final class ApnsClient implements VendorClient {
    /** How long APNs keeps trying to reach an offline device. */
    static final Duration EXPIRY = Duration.ofDays(1);

    private final VendorSettings settings;
    private final com.eatthepath.pushy.apns.ApnsClient client;

    ApnsClient(VendorSettings s, int connections) {
        this.settings = s;
        try {
            URI u = URI.create(s.url());
            ApnsClientBuilder b =
                    new ApnsClientBuilder()
                            .setApnsServer(u.getHost(), u.getPort() > 0 ? u.getPort() : 443)
                            .setSigningKey(
                                    ApnsSigningKey.loadFromPkcs8File(
                                            new File(s.credentials()), s.secret(), s.appKey()))
                            .setConcurrentConnections(connections)
                            .setConnectionTimeout(Duration.ofMillis(s.timeoutMs()));
            if (s.trustedCert() != null && !s.trustedCert().isEmpty()) {
                b.setTrustedServerCertificateChain(new File(s.trustedCert()));
            }
            this.client = b.build();
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot set up APNs (" + s + "): " + e, e);
        }
    }

    @Override
    public Vendor vendor() {
        return Vendor.APNS;
    }

    @Override
    public int maxBatch() {
        return 1;
    }

    @Override
    public CompletableFuture<List<Answer>> send(List<SendRecord> sends) {
        SendRecord s = sends.get(0);
        String payload =
                new SimpleApnsPayloadBuilder()
                        .setAlertTitle(s.title)
                        .setAlertBody(s.body)
                        .addCustomProperty("msgId", s.msgId)
                        .build();
        SimpleApnsPushNotification n =
                new SimpleApnsPushNotification(
                        s.token,
                        settings.appId(),
                        payload,
                        Instant.now().plus(EXPIRY),
                        s.level >= 3 ? DeliveryPriority.IMMEDIATE : DeliveryPriority.CONSERVE_POWER,
                        PushType.ALERT,
                        Collapse.id(s.msgId),
                        UUID.nameUUIDFromBytes(
                                (s.msgId + "/" + s.deviceId).getBytes(StandardCharsets.UTF_8)));
        CompletableFuture<List<Answer>> out = new CompletableFuture<>();
        try {
            client.sendNotification(n)
                    .whenComplete(
                            (r, e) -> {
                                Answer a;
                                try {
                                    a =
                                            e != null
                                                    ? Answer.unavailable(
                                                            e.getClass().getSimpleName())
                                                    : answer(r);
                                } catch (RuntimeException unreadable) {
                                    // an answer that cannot be read must still answer the call
                                    a = Answer.unavailable(unreadable.getClass().getSimpleName());
                                }
                                out.complete(List.of(a));
                            });
        } catch (RuntimeException e) {
            out.complete(List.of(Answer.unavailable(e.getClass().getSimpleName())));
        }
        return out;
    }

    static Answer answer(PushNotificationResponse<?> r) {
        if (r.isAccepted()) {
            return Answer.SENT;
        }
        String reason = r.getRejectionReason().orElse(String.valueOf(r.getStatusCode()));
        switch (reason) {
            case "BadDeviceToken":
            case "Unregistered":
            case "DeviceTokenNotForTopic":
                return Answer.tokenInvalid(reason);
            case "TooManyRequests":
                return Answer.throttled(reason, HttpVendor.DEFAULT_RETRY_AFTER_MS);
            default:
                return r.getStatusCode() >= 500
                        ? Answer.unavailable(reason)
                        : Answer.failed(reason);
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
