package io.pushline.common;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.DispatchTags;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Parses (position, text) records of {@link KafkaIO#linesSince} with {@code parse}; a record it
 * refuses is a dead letter with its position and the reason, like a bad line of {@link FileLines}.
 */
public class KafkaLines<T> extends ProcessFunction<Tuple2<String, String>, T> {
    private static final long serialVersionUID = 1L;
    private final String source;
    private final FileLines.Parse<T> parse;

    public KafkaLines(String source, FileLines.Parse<T> parse) {
        this.source = source;
        this.parse = parse;
    }

    @Override
    public void processElement(Tuple2<String, String> in, Context ctx, Collector<T> out) {
        try {
            out.collect(parse.apply(in.f1));
        } catch (Throwable t) {
            ctx.output(
                    DispatchTags.DEAD_LETTERS,
                    DeadLetter.of(source, in.f0, RecordFailure.lineReason(source, t), in.f1));
        }
    }
}
