package io.pushline.cli;

import io.pushline.audience.AudienceEvaluator;
import io.pushline.audience.ExpressionException;
import io.pushline.audience.IdSet;
import io.pushline.audience.SegmentFolder;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.roaringbitmap.IntIterator;

/**
 * {@code ./pushline audience eval --segments DIR --expr 'EXPR' [--universe FILE] [--count]}: an
 * audience expression over a folder of segments (audience-expressions.md).
 */
final class AudienceCommand {
    private static final String USAGE =
            "usage: ./pushline audience eval --segments DIR --expr 'EXPR' [--universe FILE] [--count]";

    private AudienceCommand() {}

    static int run(String[] args) throws Exception {
        if (args.length == 0 || !args[0].equals("eval")) {
            throw new Main.UsageException(USAGE);
        }
        Path segments = null;
        Path universe = null;
        String expr = null;
        boolean count = false;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--segments":
                    segments = Paths.get(value(args, ++i));
                    break;
                case "--universe":
                    universe = Paths.get(value(args, ++i));
                    break;
                case "--expr":
                    expr = value(args, ++i);
                    break;
                case "--count":
                    count = true;
                    break;
                default:
                    throw new Main.UsageException("unknown argument '" + args[i] + "'; " + USAGE);
            }
        }
        if (expr == null) {
            throw new Main.UsageException(USAGE);
        }
        if (segments == null) {
            throw new Main.UsageException(
                    "--segments DIR is required: the HBase segment store (--store) is not built"
                            + " yet");
        }
        SegmentFolder folder = SegmentFolder.load(segments, universe);
        IdSet result;
        try {
            result = new AudienceEvaluator(folder.segments, folder.universe).evaluate(expr);
        } catch (ExpressionException e) {
            System.err.println(e.report());
            return 2;
        }
        if (count) {
            System.out.println(result.cardinality());
            return 0;
        }
        BufferedWriter out =
                new BufferedWriter(
                        new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        for (IntIterator it = result.ids(); it.hasNext(); ) {
            out.write(folder.uid(it.next()));
            out.write('\n');
        }
        out.flush();
        return 0;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new Main.UsageException(USAGE);
        }
        return args[i];
    }
}
