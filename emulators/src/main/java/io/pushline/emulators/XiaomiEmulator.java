package io.pushline.emulators;

import io.pushline.schema.Json;
import io.pushline.schema.Vendor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Xiaomi MiPush as its server API v3 documents it: {@code POST /v3/message/regid}, a form with
 * {@code Authorization: key=<AppSecret>}, up to 1,000 comma-separated regids; {@code result: ok}
 * with unusable regids in {@code data.bad_regids}, code 22001 over the quota, HTTP 503. The
 * collapse id is {@code notify_id}.
 */
public final class XiaomiEmulator extends HttpEmulator {
    public XiaomiEmulator(EmulatorCredentials c, Behaviour b, int port) throws IOException {
        super(Vendor.XIAOMI, c, b, port);
    }

    @Override
    protected Reply answer(Request r) {
        if (!r.path().equals("/v3/message/regid")) {
            return Reply.json(
                    404, Map.of("result", "error", "code", 10001, "reason", "unknown path"));
        }
        if (!("key=" + credentials.secret()).equals(r.header("Authorization"))) {
            counts.unauthorized.incrementAndGet();
            return Reply.json(
                    401, Map.of("result", "error", "code", 10017, "reason", "invalid app secret"));
        }
        counts.calls.incrementAndGet();
        if (fails()) {
            return Reply.json(
                    503, Map.of("result", "error", "code", 10003, "reason", "service busy"));
        }
        Map<String, String> f = r.form();
        String ids = f.getOrDefault("registration_id", "");
        String[] regids = ids.isEmpty() ? new String[0] : ids.split(",");
        if (regids.length == 0
                || regids.length > 1000
                || !credentials.appId().equals(f.get("restricted_package_name"))) {
            return Reply.json(
                    400, Map.of("result", "error", "code", 20301, "reason", "bad parameters"));
        }
        if (!admit(regids.length)) {
            return Reply.json(
                    200, Map.of("result", "error", "code", 22001, "reason", "quota exceeded"));
        }
        String notifyId = f.getOrDefault("notify_id", "");
        List<String> bad = new ArrayList<>();
        for (String id : regids) {
            if (!deliver(notifyId, id)) {
                bad.add(id);
            }
        }
        Map<String, Object> data = new java.util.LinkedHashMap<>();
        data.put("id", issue());
        if (!bad.isEmpty()) {
            data.put("bad_regids", String.join(",", bad));
        }
        return Reply.json(
                200,
                Json.write(Map.of("result", "ok", "code", 0, "description", "成功", "data", data)));
    }
}
