package io.pushline.serve;

import io.javalin.http.Context;
import io.pushline.serve.AppKeys.Scope;
import java.util.Locale;

/**
 * The checks every app-API call passes before its handler: a key with the endpoint's scope (401,
 * 403), a JSON body for a method that carries one (415), at most {@link #MAX_BODY} bytes (413). The
 * console token is not an app key, so it opens none of these endpoints.
 */
final class AppAccess {
    /** The largest body of an app call. */
    static final int MAX_BODY = 256 * 1024;

    private static final String KEY_ATTRIBUTE = "pushline.appKey";

    private final AppKeys keys;
    private final RateLimits rates;

    AppAccess(AppKeys keys, RateLimits rates) {
        this.keys = keys;
        this.rates = rates;
    }

    /** The scope {@code method path} needs; null for a path that is not an app endpoint. */
    static Scope scopeOf(String method, String path) {
        if (path.equals("/v1/push")) {
            return Scope.PUSH;
        }
        if (path.startsWith("/v1/push/")) {
            return "POST".equals(method) ? Scope.PUSH : Scope.STATUS;
        }
        if (path.equals("/v1/devices") || path.startsWith("/v1/devices/")) {
            return Scope.DEVICES;
        }
        if (path.equals("/v1/reminders") || path.startsWith("/v1/reminders/")) {
            return Scope.REMINDERS;
        }
        if (path.equals("/v1/inbox") || path.startsWith("/v1/inbox/")) {
            return Scope.INBOX;
        }
        return null;
    }

    /** Refuses the call unless it may reach its handler; remembers the caller's key. */
    void check(Context ctx) {
        String method = ctx.method().name();
        Scope scope = scopeOf(method, ctx.path());
        if (scope == null) {
            return;
        }
        AppKeys.Key key = keys.find(ctx.header("Authorization"));
        Server.Refused refused = refusal(key, scope);
        if (refused != null) {
            throw refused;
        }
        ctx.attribute(KEY_ATTRIBUTE, key);
        if (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
            if (ctx.contentLength() > MAX_BODY) {
                throw tooLarge();
            }
            String type = ctx.header("Content-Type");
            if ((type != null || ctx.contentLength() != 0) && !isJson(type)) {
                throw new Server.Refused(
                        415, "the body must be JSON (Content-Type: application/json)", null);
            }
        }
    }

    /**
     * Why a call with {@code authorization} may not use an endpoint of {@code scope} (401, 403,
     * 429), or null when it may; a call that may is counted against its key's rate.
     */
    Server.Refused refusal(String authorization, Scope scope) {
        return refusal(keys.find(authorization), scope);
    }

    private Server.Refused refusal(AppKeys.Key key, Scope scope) {
        if (key == null) {
            return new Server.Refused(401, AppKeys.NEEDED, "Authorization");
        }
        if (!key.scopes().contains(scope)) {
            return new Server.Refused(403, AppKeys.forbidden(scope), "Authorization");
        }
        long wait = rates.take(key.name());
        if (wait > 0) {
            return new Server.Refused(
                    429, "this app key made more calls than serve.app-rate allows", null, wait);
        }
        return null;
    }

    /**
     * Whether a Content-Type says JSON. A call without a body and without a Content-Type (a PUT of
     * a subscriber carries nothing) passes; any other must say JSON, so a cross-site form post
     * ({@code text/plain}, {@code application/x-www-form-urlencoded}) is refused before reading.
     */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String media = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return media.equals("application/json");
    }

    static Server.Refused tooLarge() {
        return new Server.Refused(413, "the body is larger than " + MAX_BODY + " bytes", null);
    }

    /** The key of the call, as {@link #check} found it. */
    static AppKeys.Key key(Context ctx) {
        AppKeys.Key k = ctx.attribute(KEY_ATTRIBUTE);
        if (k == null) {
            throw new Server.Refused(401, AppKeys.NEEDED, "Authorization");
        }
        return k;
    }
}
