package io.pushline.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One {@code ./pushline} command run in this JVM: its exit code and what it printed. */
record Ran(int code, String out, String err) {
    static Ran pushline(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        PrintStream so = System.out;
        PrintStream se = System.err;
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Main.run(args);
        } finally {
            System.setOut(so);
            System.setErr(se);
        }
        return new Ran(
                code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }
}
