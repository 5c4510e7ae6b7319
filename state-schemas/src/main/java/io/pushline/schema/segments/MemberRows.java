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

    /**
     * The longest segment name: names are parts of HBase row keys (at most 32,767 bytes), and a
     * strategist types them into expressions.
     */
    public static final int MAX_SEGMENT_NAME_LENGTH = 200;

    /** A segment name is non-blank, at most 200 characters, without control characters. */
    public static boolean isSegmentName(String name) {
        if (name == null || name.isBlank() || name.length() > MAX_SEGMENT_NAME_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Why {@code name} cannot be a segment's name. */
    public static String badSegmentName(String name) {
        return "malformed segment name (blank, control characters or over "
                + MAX_SEGMENT_NAME_LENGTH
                + " characters)";
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
