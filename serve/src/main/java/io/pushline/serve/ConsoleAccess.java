package io.pushline.serve;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who may use the console and its API: the console token, given as {@code Authorization: Bearer
 * TOKEN} (scripts) or exchanged once at the login form for a session cookie (the page). It opens
 * none of the app backends' endpoints ({@link AppKeys}), and no app key opens the console. Tokens
 * are compared in constant time and never logged or echoed.
 */
final class ConsoleAccess {
    static final String COOKIE = "pushline_console";

    /** A session ends after this long; the strategist logs in again. */
    static final long SESSION_MS = 12 * 3_600_000L;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] consoleToken;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /** A logged-in person: the name they gave (it goes with what they save). */
    record Session(String user, long until) {}

    /**
     * @param consoleToken required
     */
    ConsoleAccess(String consoleToken) {
        if (consoleToken == null || consoleToken.isEmpty()) {
            throw new IllegalArgumentException("the console needs a token");
        }
        this.consoleToken = consoleToken.getBytes(StandardCharsets.UTF_8);
    }

    /** A new random token (32 bytes, URL-safe base64). */
    static String newToken() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** A session for {@code user} if {@code token} is the console's; null otherwise. */
    String login(String token, String user, long now) {
        if (!same(token, consoleToken)) {
            return null;
        }
        String id = newToken();
        sessions.values().removeIf(s -> s.until() < now);
        sessions.put(id, new Session(user, now + SESSION_MS));
        return id;
    }

    void logout(Context ctx) {
        String id = ctx.cookie(COOKIE);
        if (id != null) {
            sessions.remove(id);
        }
    }

    /** The caller's session (cookie) or a script's bearer token; null: not allowed. */
    Session console(Context ctx, long now) {
        String id = ctx.cookie(COOKIE);
        if (id != null) {
            Session s = sessions.get(id);
            if (s != null && s.until() >= now) {
                return s;
            }
        }
        String bearer = bearer(ctx);
        if (bearer != null && same(bearer, consoleToken)) {
            String user = ctx.header("X-Pushline-User");
            return new Session(user == null || user.isBlank() ? "api" : user, now);
        }
        return null;
    }

    private static String bearer(Context ctx) {
        return bearer(ctx.header("Authorization"));
    }

    private static String bearer(String h) {
        return h != null && h.regionMatches(true, 0, "Bearer ", 0, 7)
                ? h.substring(7).trim()
                : null;
    }

    private static boolean same(String given, byte[] expected) {
        return given != null
                && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected);
    }
}
