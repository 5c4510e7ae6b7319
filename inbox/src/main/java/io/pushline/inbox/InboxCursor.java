package io.pushline.inbox;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where a page ended: the (ts, id) of its last message, as an opaque URL-safe string. The next page
 * starts right after it in the inbox's order, so messages that arrive meanwhile (newer, hence
 * before it) neither shift nor repeat the pages that follow.
 */
public record InboxCursor(long ts, int id) {
    private static final String PREFIX = "c1.";

    public String encode() {
        String raw = ts + "." + id;
        return PREFIX
                + Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(raw.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * @throws IllegalArgumentException when {@code text} is not a cursor this class wrote
     */
    public static InboxCursor decode(String text) {
        if (text == null || !text.startsWith(PREFIX) || text.length() > 64) {
            throw new IllegalArgumentException("not a cursor from an earlier answer");
        }
        try {
            String raw =
                    new String(
                            Base64.getUrlDecoder().decode(text.substring(PREFIX.length())),
                            StandardCharsets.US_ASCII);
            int dot = raw.indexOf('.');
            return new InboxCursor(
                    Long.parseLong(raw.substring(0, dot)),
                    Integer.parseInt(raw.substring(dot + 1)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a cursor from an earlier answer");
        }
    }

    /** Whether {@code m} comes after this cursor in newest-first order. */
    boolean isBefore(Message m) {
        return m.ts() < ts || (m.ts() == ts && m.id() < id);
    }
}
