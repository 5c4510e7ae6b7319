package io.pushline.serve;

import io.pushline.common.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The app backends' keys: who may call the app APIs, and which of them. A key has a name (for logs,
 * metrics and idempotency, never the secret), a secret sent as {@code Authorization: Bearer
 * SECRET}, and scopes. The file of {@code serve.app-keys} holds one key a line, {@code NAME SECRET
 * SCOPE[,SCOPE...]}, blank lines and {@code #} comments skipped.
 *
 * <p>Secrets are kept only as SHA-256 digests and a call's secret is compared with every key's, in
 * constant time each, so neither the answer's timing nor a heap dump tells a secret.
 */
public final class AppKeys {
    /** What a key may do; each app endpoint needs one. */
    enum Scope {
        PUSH,
        DEVICES,
        REMINDERS,
        INBOX,
        STATUS;

        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A key as a call carries it: its name and scopes. */
    record Key(String name, Set<Scope> scopes) {}

    private record Entry(Key key, byte[] digest) {}

    static final String NEEDED = "an app key is needed (Authorization: Bearer SECRET)";

    private final List<Entry> entries;

    private AppKeys(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** One key with every scope. */
    public static AppKeys single(String name, String secret) {
        return new AppKeys(
                List.of(new Entry(new Key(name, EnumSet.allOf(Scope.class)), digest(secret))));
    }

    /** The keys of the file {@code file} (the option {@code serve.app-keys}). */
    public static AppKeys load(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException(
                    "option 'serve.app-keys': cannot read " + file + ": " + e.getMessage());
        }
        return parse(lines, file.toString());
    }

    /** The keys of {@code lines}; a malformed line stops start-up with its number. */
    public static AppKeys parse(List<String> lines, String source) {
        List<Entry> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> digests = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = "option 'serve.app-keys': " + source + " line " + (i + 1) + ": ";
            String[] parts = line.split("\\s+");
            if (parts.length != 3) {
                // the line is not echoed: it holds a secret
                throw new UsageException(
                        where
                                + "expected NAME SECRET SCOPE[,SCOPE...], got "
                                + parts.length
                                + " fields");
            }
            String name = parts[0];
            if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new UsageException(
                        where
                                + "the name must be 1 to 64 of A-Z a-z 0-9 . _ -, got '"
                                + name
                                + "'");
            }
            if (!names.add(name)) {
                throw new UsageException(where + "a second key named '" + name + "'");
            }
            String secret = parts[1];
            byte[] digest = digest(secret);
            if (!digests.add(new String(digest, StandardCharsets.ISO_8859_1))) {
                throw new UsageException(where + "the same secret as an earlier key");
            }
            Set<Scope> scopes = EnumSet.noneOf(Scope.class);
            for (String s : parts[2].split(",")) {
                scopes.add(scope(s, where));
            }
            out.add(new Entry(new Key(name, scopes), digest));
        }
        if (out.isEmpty()) {
            throw new UsageException(
                    "option 'serve.app-keys': " + source + " holds no key (NAME SECRET SCOPES)");
        }
        return new AppKeys(out);
    }

    private static Scope scope(String s, String where) {
        for (Scope sc : Scope.values()) {
            if (sc.wireName().equals(s)) {
                return sc;
            }
        }
        throw new UsageException(
                where + "unknown scope '" + s + "' (push, devices, reminders, inbox, status)");
    }

    /** The key whose secret the header carries, or null (no header, not Bearer, unknown). */
    Key find(String authorization) {
        String secret = bearer(authorization);
        if (secret == null) {
            return null;
        }
        byte[] d = digest(secret);
        Key found = null;
        for (Entry e : entries) {
            // every entry compared: the time does not tell which key matched
            if (MessageDigest.isEqual(d, e.digest())) {
                found = e.key();
            }
        }
        return found;
    }

    /** 200 when the header's key has {@code scope}, 401 for no or an unknown key, 403 else. */
    int status(String authorization, Scope scope) {
        Key k = find(authorization);
        return k == null ? 401 : k.scopes().contains(scope) ? 200 : 403;
    }

    /** The message of a 403. */
    static String forbidden(Scope scope) {
        return "this app key lacks the scope '" + scope.wireName() + "'";
    }

    static String bearer(String h) {
        return h != null && h.regionMatches(true, 0, "Bearer ", 0, 7)
                ? h.substring(7).trim()
                : null;
    }

    private static byte[] digest(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
