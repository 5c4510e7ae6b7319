package io.pushline.segments;

import io.pushline.schema.segments.MemberRow;
import io.pushline.schema.segments.MemberRows;
import java.io.BufferedReader;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
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
        String path = file.substring(tab + 1);
        try (BufferedReader in = PackageFiles.open(path)) {
            long lineNo = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                MemberRow row = MemberRows.fromLine(segment, line, path, ++lineNo);
                if (row != null) {
                    out.collect(row);
                }
            }
        }
    }
}
