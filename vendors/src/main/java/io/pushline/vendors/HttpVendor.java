package io.pushline.vendors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.pushline.schema.Json;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Vendor;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** What the HTTP vendors share: settings, one connection pool, reading whole-call failures. */
abstract class HttpVendor implements VendorClient {
    /** How long to wait after a 429 that gave no Retry-After. */
    static final long DEFAULT_RETRY_AFTER_MS = 1_000;

    protected final VendorSettings settings;
    protected final Http http;

    HttpVendor(VendorSettings settings) {
        this.settings = settings;
        this.http = new Http(settings);
    }

    @Override
    public Vendor vendor() {
        return settings.vendor();
    }

    @Override
    public final CompletableFuture<List<Answer>> send(List<SendRecord> sends) {
        if (sends.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        CompletableFuture<List<Answer>> f;
        try {
            f = call(sends);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        return f.handle(
                (answers, e) -> {
                    if (e != null) {
                        return all(sends.size(), Answer.unavailable(e.getClass().getSimpleName()));
                    }
                    return answers.size() == sends.size()
                            ? answers
                            : all(sends.size(), Answer.unavailable("answer count"));
                });
    }

    /** One call for {@code sends} (at most {@link #maxBatch()}, all of one msgId). */
    protected abstract CompletableFuture<List<Answer>> call(List<SendRecord> sends);

    static List<Answer> all(int n, Answer a) {
        return Collections.nCopies(n, a);
    }

    /** The answer for every send of a call whose HTTP status says it failed as a whole. */
    static Answer forStatus(Http.Reply r, String vendorCode) {
        if (r.status() == 429) {
            return Answer.throttled(
                    vendorCode != null ? vendorCode : "429",
                    Http.retryAfterMs(r.retryAfter(), DEFAULT_RETRY_AFTER_MS));
        }
        if (r.serverError()) {
            return Answer.unavailable(
                    vendorCode != null
                            ? vendorCode
                            : r.status() == 0 ? r.body() : String.valueOf(r.status()));
        }
        return Answer.failed(vendorCode != null ? vendorCode : String.valueOf(r.status()));
    }

    /** The body as JSON, or a missing node when it is not JSON. */
    static JsonNode json(String body) {
        if (body == null || body.isEmpty()) {
            return MissingNode.getInstance();
        }
        try {
            JsonNode n = Json.MAPPER.readTree(body);
            return n == null ? MissingNode.getInstance() : n;
        } catch (Exception e) {
            return MissingNode.getInstance();
        }
    }

    static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    /** A send's token set, for reading which of a batch the vendor refused. */
    static Set<String> set(JsonNode array) {
        Set<String> s = new HashSet<>();
        if (array != null && array.isArray()) {
            array.forEach(t -> s.add(t.asText()));
        } else if (array != null && array.isTextual()) {
            for (String t : array.asText().split(",")) {
                if (!t.isBlank()) {
                    s.add(t.trim());
                }
            }
        }
        return s;
    }

    @Override
    public void close() {
        http.close();
    }
}
