package io.pushline.recall;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.dispatch.DispatchTags;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Reads one input file through Flink's file systems, a line at a time, with {@code parse}; a line
 * it refuses is a dead letter ({@code file:line} and the reason) and the file goes on.
 */
class ReadLines<T> extends ProcessFunction<String, T> {
    private static final long serialVersionUID = 1L;

    interface Parse<T> extends java.io.Serializable {
        T apply(String line);
    }

    private final Parse<T> parse;

    ReadLines(Parse<T> parse) {
        this.parse = parse;
    }

    @Override
    public void processElement(String file, Context ctx, Collector<T> out) throws Exception {
        Path path = new Path(file);
        try (BufferedReader in =
                new BufferedReader(
                        new InputStreamReader(
                                path.getFileSystem().open(path), StandardCharsets.UTF_8),
                        1 << 16)) {
            long n = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    out.collect(parse.apply(line));
                } catch (RuntimeException e) {
                    ctx.output(
                            DispatchTags.DEAD_LETTERS,
                            DeadLetter.of("recall", file + ":" + n, e.getMessage(), line));
                }
            }
        }
    }
}
