package io.pushline.schema.segments;

import io.pushline.schema.DeadLetter;

/** Rows of user-package files: one uid per line, surrounding whitespace and blank lines ignored. */
public final class MemberRows {
    /** Longer uids are taken for garbage (a binary file, a line without breaks). */
    public static final int MAX_UID_LENGTH = 256;

    private MemberRows() {}

    /** A member line of the file of {@code segment}, null for a blank line. */
    public static MemberRow fromLine(String segment, String line, String file, long lineNo) {
        String uid = line.strip();
        if (uid.isEmpty()) {
            return null;
        }
        if (!isUid(uid)) {
            return MemberRow.rejected(
                    DeadLetter.of(
                            file,
                            "line " + lineNo,
                            "malformed uid (whitespace, control characters or over "
                                    + MAX_UID_LENGTH
                                    + " characters)",
                            line.length() > 1000 ? line.substring(0, 1000) : line));
        }
        return MemberRow.of(segment, uid, MemberRow.FILE, 0, lineNo);
    }

    public static boolean isUid(String uid) {
        if (uid == null || uid.isEmpty() || uid.length() > MAX_UID_LENGTH) {
            return false;
        }
        for (int i = 0; i < uid.length(); i++) {
            char c = uid.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c)) {
                return false;
            }
        }
        return true;
    }
}
