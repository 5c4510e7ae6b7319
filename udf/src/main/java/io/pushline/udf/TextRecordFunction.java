package io.pushline.udf;

import io.pushline.schema.RecordFailure;
import io.pushline.schema.dispatch.DispatchTags;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Reads the text records of one topic: whatever {@link #handle} throws for one record (short of
 * what no record causes, see {@link RecordFailure}) makes that record a dead letter on {@link
 * DispatchTags#DEAD_LETTERS}, and the next record is read.
 */
public abstract class TextRecordFunction<OUT> extends ProcessFunction<String, OUT> {
    private static final long serialVersionUID = 1L;
    private final String source;
    private transient long failures;

    protected TextRecordFunction(String source) {
        this.source = source;
    }

    @Override
    public final void processElement(String text, Context ctx, Collector<OUT> out) {
        try {
            handle(text, ctx, out);
        } catch (Throwable t) {
            ctx.output(
                    DispatchTags.DEAD_LETTERS,
                    RecordFailure.deadLetter(source, null, () -> text, t, ++failures));
        }
    }

    /** Reads one record; a bad one is best sent to the dead letters with its own reason. */
    protected abstract void handle(String text, Context ctx, Collector<OUT> out) throws Exception;
}
