package io.pushline.schema.longconn;

import java.util.regex.Pattern;

/**
 * App versions as the long-connection clients report them: one to four dot-separated components of
 * ASCII digits. They compare numerically component by component, a missing component counting as 0,
 * so {@code 7.0 = 7.0.0 < 7.0.1 < 7.10}. Components may be longer than any integer type; they are
 * compared as digit strings without leading zeros.
 */
public final class AppVersion {
    private static final Pattern VERSION = Pattern.compile("[0-9]+(\\.[0-9]+){0,3}");

    /** Longest version string accepted. */
    public static final int MAX_CHARS = 64;

    private AppVersion() {}

    public static boolean valid(String v) {
        return v != null && v.length() <= MAX_CHARS && VERSION.matcher(v).matches();
    }

    /**
     * Compares two valid versions: negative, zero or positive as {@code a} is lower, equal or
     * higher.
     */
    public static int compare(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = compareComponent(i < x.length ? x[i] : "0", i < y.length ? y[i] : "0");
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static int compareComponent(String a, String b) {
        a = stripZeros(a);
        b = stripZeros(b);
        if (a.length() != b.length()) {
            return Integer.compare(a.length(), b.length());
        }
        return a.compareTo(b);
    }

    private static String stripZeros(String s) {
        int i = 0;
        while (i < s.length() - 1 && s.charAt(i) == '0') {
            i++;
        }
        return s.substring(i);
    }
}
