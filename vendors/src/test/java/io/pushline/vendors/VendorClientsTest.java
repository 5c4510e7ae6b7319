package io.pushline.vendors;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.emulators.Behaviour;
import io.pushline.emulators.Emulators;
import io.pushline.emulators.HttpEmulator;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Vendor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each HTTP vendor's client against its emulator, over real HTTP. */
class VendorClientsTest {
    @TempDir static Path dir;
    static Emulators emulators;

    @BeforeAll
    static void start() throws Exception {
        emulators = Emulators.start(dir, Behaviour.PLAIN);
    }

    @AfterAll
    static void stop() {
        emulators.close();
    }

    static VendorClient client(Vendor v) {
        Emulators.Endpoint e = emulators.endpoint(v);
        return VendorClients.of(
                new VendorSettings(
                        v,
                        e.url(),
                        null,
                        e.appId(),
                        e.appKey(),
                        e.secret(),
                        e.credentialsFile(),
                        null,
                        5_000),
                1);
    }

    static List<SendRecord> sends(Vendor v, String msgId, String... tokens) {
        List<SendRecord> out = new ArrayList<>();
        for (int i = 0; i < tokens.length; i++) {
            SendRecord s = new SendRecord();
            s.msgId = msgId;
            s.msgType = "promo";
            s.deviceId = "dev-" + i;
            s.uid = "u-" + i;
            s.vendor = v.wireName();
            s.token = tokens[i];
            s.title = "Title";
            s.body = "Body";
            out.add(s);
        }
        return out;
    }

    static List<Answer> send(VendorClient c, List<SendRecord> sends) throws Exception {
        List<Answer> all = new ArrayList<>();
        for (int i = 0; i < sends.size(); i += c.maxBatch()) {
            all.addAll(
                    c.send(sends.subList(i, Math.min(sends.size(), i + c.maxBatch())))
                            .get(10, TimeUnit.SECONDS));
        }
        return all;
    }

    @ParameterizedTest
    @EnumSource(
            value = Vendor.class,
            names = {"FCM", "HUAWEI", "HONOR", "XIAOMI", "OPPO", "VIVO"})
    void answersEachSendAndTellsInvalidTokensApart(Vendor v) throws Exception {
        HttpEmulator em = emulators.emulator(v);
        em.behave(Behaviour.PLAIN);
        long before = em.counts.accepted.get();
        long unauthorized = em.counts.unauthorized.get();
        try (VendorClient c = client(v)) {
            List<Answer> a = send(c, sends(v, "m-" + v, "tok-a", "invalid-b", "tok-c"));
            assertThat(a)
                    .extracting(Answer::outcome)
                    .containsExactly(
                            Answer.Outcome.SENT, Answer.Outcome.TOKEN_INVALID, Answer.Outcome.SENT);
            assertThat(em.counts.accepted.get() - before).isEqualTo(2);
            assertThat(em.counts.unauthorized.get()).isEqualTo(unauthorized);

            // the same call again (as after a restore) carries the same collapse ids: the vendor
            // sees resends, the devices one notification each
            long resends = em.counts.resends.get();
            assertThat(send(c, sends(v, "m-" + v, "tok-a", "invalid-b", "tok-c")))
                    .extracting(Answer::outcome)
                    .containsExactly(
                            Answer.Outcome.SENT, Answer.Outcome.TOKEN_INVALID, Answer.Outcome.SENT);
            assertThat(em.counts.resends.get() - resends).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Vendor.class,
            names = {"FCM", "HUAWEI", "HONOR", "XIAOMI", "OPPO", "VIVO"})
    void aQuotaIsAThrottleAndAFailureIsRetryable(Vendor v) throws Exception {
        HttpEmulator em = emulators.emulator(v);
        try (VendorClient c = client(v)) {
            // a quota of 1 a second: the first of three sends goes, then the vendor throttles
            em.behave(Behaviour.PLAIN.withQuota(1));
            List<Answer> a = new ArrayList<>();
            for (String t : List.of("q-1", "q-2", "q-3")) {
                a.addAll(send(c, sends(v, "q-" + v, t)));
            }
            assertThat(a.get(0).outcome()).isEqualTo(Answer.Outcome.SENT);
            assertThat(a.get(2).outcome()).isEqualTo(Answer.Outcome.THROTTLED);
            assertThat(a.get(2).retryAfterMs()).isEqualTo(1_000);

            em.behave(Behaviour.PLAIN.withErrorShare(1));
            Answer down = send(c, sends(v, "e-" + v, "tok-e")).get(0);
            assertThat(down.outcome()).isEqualTo(Answer.Outcome.UNAVAILABLE);
            assertThat(down.retryable()).isTrue();
        } finally {
            em.behave(Behaviour.PLAIN);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Vendor.class,
            names = {"HUAWEI", "HONOR", "OPPO", "VIVO"})
    void wrongCredentialsAreNeverSent(Vendor v) throws Exception {
        Emulators.Endpoint e = emulators.endpoint(v);
        HttpEmulator em = emulators.emulator(v);
        long accepted = em.counts.accepted.get();
        try (VendorClient c =
                VendorClients.of(
                        new VendorSettings(
                                v,
                                e.url(),
                                null,
                                e.appId(),
                                e.appKey(),
                                "wrong",
                                null,
                                null,
                                5_000),
                        1)) {
            Answer a = send(c, sends(v, "w-" + v, "tok-w")).get(0);
            assertThat(a.outcome()).isEqualTo(Answer.Outcome.UNAVAILABLE);
        }
        assertThat(em.counts.accepted.get()).isEqualTo(accepted);
        assertThat(em.counts.unauthorized.get()).isPositive();
    }
}
