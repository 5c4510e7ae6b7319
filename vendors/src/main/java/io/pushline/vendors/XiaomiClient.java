package io.pushline.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import io.pushline.schema.SendRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;

/**
 * Xiaomi MiPush, server API v3: {@code POST /v3/message/regid} as a form, {@code Authorization:
 * key=<AppSecret>}, up to 1,000 comma-separated regids per message; the app's package name from
 * {@code appId}. {@code result: ok} (code 0) is success, regids it could not use come back in
 * {@code data.bad_regids}; code 200001/22001 (quota) is a throttle. {@code notify_id}, a number
 * from the msgId, makes a resend replace the first copy.
 */
final class XiaomiClient extends HttpVendor {
    XiaomiClient(VendorSettings s) {
        super(s);
    }

    @Override
    public int maxBatch() {
        return 1_000;
    }

    @Override
    protected CompletableFuture<List<Answer>> call(List<SendRecord> sends) {
        SendRecord first = sends.get(0);
        StringJoiner ids = new StringJoiner(",");
        sends.forEach(s -> ids.add(s.token));
        Map<String, String> form = new LinkedHashMap<>();
        form.put("registration_id", ids.toString());
        form.put("restricted_package_name", orEmpty(settings.appId()));
        form.put("title", orEmpty(first.title));
        form.put("description", orEmpty(first.body));
        form.put("pass_through", "0");
        form.put("notify_type", "-1");
        form.put("notify_id", String.valueOf(Collapse.number(first.msgId)));
        form.put("extra.msgId", first.msgId);
        return http.postForm(
                        settings.base() + "/v3/message/regid",
                        form,
                        Map.of("Authorization", "key=" + settings.secret()))
                .thenApply(r -> answers(r, sends));
    }

    private static List<Answer> answers(Http.Reply r, List<SendRecord> sends) {
        JsonNode n = json(r.body());
        String code = n.path("code").asText(null);
        if (!r.ok()) {
            return all(sends.size(), forStatus(r, code));
        }
        if ("200001".equals(code) || "22001".equals(code)) {
            return all(sends.size(), Answer.throttled(code, DEFAULT_RETRY_AFTER_MS));
        }
        if (!"ok".equals(n.path("result").asText()) || !"0".equals(code)) {
            return all(sends.size(), Answer.failed(code == null ? "no code" : code));
        }
        Set<String> bad = set(n.path("data").path("bad_regids"));
        List<Answer> out = new ArrayList<>(sends.size());
        for (SendRecord s : sends) {
            out.add(bad.contains(s.token) ? Answer.tokenInvalid("bad_regid") : Answer.SENT);
        }
        return out;
    }
}
