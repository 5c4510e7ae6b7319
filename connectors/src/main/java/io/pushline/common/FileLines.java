package io.pushline.common;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.Topics;
import io.pushline.schema.dispatch.DispatchTags;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Reads one input file through Flink's file systems, a line at a time, with {@code parse}; a line
 * it refuses is a dead letter ({@code file:line} and the reason) and the file goes on.
 */
public class FileLines<T> extends ProcessFunction<String, T> {
    private static final long serialVersionUID = 1L;

    /** The longest line read, in characters: Kafka's default record limit, 1 MiB. */
    public static final int MAX_LINE = 1 << 20;

    /** Turns a line into a record, or throws with the reason. */
    public interface Parse<T> extends java.io.Serializable {
        T apply(String line);
    }

    private final String source;
    private final Parse<T> parse;

    /**
     * @param source the dead letters' {@code source} ("activity", "recall")
     */
    public FileLines(String source, Parse<T> parse) {
        this.source = source;
        this.parse = parse;
    }

    @Override
    public void processElement(String file, Context ctx, Collector<T> out) throws Exception {
        Path path = new Path(file);
        try (BoundedLines in =
                new BoundedLines(
                        new InputStreamReader(
                                path.getFileSystem().open(path), StandardCharsets.UTF_8),
                        MAX_LINE)) {
            long n = 0;
            for (String line = in.next(); line != null; line = in.next()) {
                n++;
                if (in.wasCut()) {
                    ctx.output(
                            DispatchTags.DEAD_LETTERS,
                            DeadLetter.of(
                                    source,
                                    file + ":" + n,
                                    "line of "
                                            + in.length()
                                            + " characters, longer than the limit of "
                                            + MAX_LINE,
                                    line));
                    continue;
                }
                if (line.isBlank()) {
                    continue;
                }
                try {
                    out.collect(parse.apply(line));
                } catch (Throwable t) {
                    ctx.output(
                            DispatchTags.DEAD_LETTERS,
                            DeadLetter.of(
                                    source,
                                    file + ":" + n,
                                    RecordFailure.lineReason(source, t),
                                    line));
                }
            }
        }
    }

    /**
     * A batch job's dead letters: to push.dlq when {@code kafka.bootstrap-servers} is set (at least
     * once), else printed to the task log, never dropped.
     */
    public static void deadLetters(
            DataStream<DeadLetter> dead, Configuration options, String label) {
        if (options.get(CommonOptions.KAFKA_BOOTSTRAP) != null) {
            dead.sinkTo(KafkaIO.jsonAtLeastOnceSink(options, d -> Topics.DLQ, d -> null))
                    .uid("sink-dead-letters-" + label.replace(' ', '-'))
                    .name("Dead letters");
        } else {
            dead.print(label).name("Dead letters (log)");
        }
    }
}
