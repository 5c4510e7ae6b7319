package io.pushline.sendtime;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.sendtime.ActivityEvent;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Reads one activity file through Flink's file systems (local, s3://, hdfs://); a bad line is a
 * dead letter ({@code file:line} and the reason) and the file goes on.
 */
class ReadActivity extends ProcessFunction<String, ActivityEvent> {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(String file, Context ctx, Collector<ActivityEvent> out)
            throws Exception {
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
                    out.collect(ActivityParser.parse(line));
                } catch (ActivityParser.BadLine e) {
                    ctx.output(
                            DispatchTags.DEAD_LETTERS,
                            DeadLetter.of("activity", file + ":" + n, e.getMessage(), line));
                }
            }
        }
    }
}
