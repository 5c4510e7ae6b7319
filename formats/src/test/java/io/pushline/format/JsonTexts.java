package io.pushline.format;

import java.util.Random;

/** Strings and numbers that test the JSON writers' escapes and encodings against databind's. */
final class JsonTexts {
    private static final String[] TEXTS = {
        null,
        "",
        "plain",
        "quote \" and \\ backslash / slash",
        "tab\tnew\nline\r\b\f\u0001\u001f\u007f",
        "é 中文 😀 \u0080\u07ff\u0800\uffff",
        "\u2028\u2029",
        "lone high \ud83d end",
        "\ude00 lone low first",
        "pair at end \ud83d\ude00",
        "\ud83d",
    };

    private JsonTexts() {}

    static String pick(Random r) {
        if (r.nextInt(8) == 0) {
            return random(r);
        }
        return TEXTS[r.nextInt(TEXTS.length)];
    }

    static long number(Random r) {
        switch (r.nextInt(5)) {
            case 0:
                return Long.MIN_VALUE;
            case 1:
                return Long.MAX_VALUE;
            case 2:
                return 0;
            case 3:
                return r.nextLong();
            default:
                return 1_767_225_600_000L;
        }
    }

    /** Any UTF-16 units, surrogates and control characters included. */
    private static String random(Random r) {
        char[] c = new char[r.nextInt(20)];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) (r.nextBoolean() ? r.nextInt(0x100) : r.nextInt(0x10000));
        }
        return new String(c);
    }
}
