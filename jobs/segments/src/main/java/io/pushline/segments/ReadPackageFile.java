package io.pushline.segments;

import io.pushline.schema.segments.MemberRow;
import io.pushline.schema.segments.MemberRows;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.Collector;

/**
 * Reads one user-package file (given as {@code segment TAB path}) into member rows, through Flink's
 * file systems, so {@code s3://} and {@code hdfs://} work as local paths do.
 */
class ReadPackageFile extends RichFlatMapFunction<String, MemberRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void flatMap(String file, Collector<MemberRow> out) throws Exception {
        int tab = file.indexOf('\t');
        String segment = file.substring(0, tab);
        Path path = new Path(file.substring(tab + 1));
        FileSystem fs = path.getFileSystem();
        try (BufferedReader in =
                new BufferedReader(
                        new InputStreamReader(fs.open(path), StandardCharsets.UTF_8), 1 << 16)) {
            long lineNo = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                MemberRow row = MemberRows.fromLine(segment, line, path.toString(), ++lineNo);
                if (row != null) {
                    out.collect(row);
                }
            }
        }
    }
}
