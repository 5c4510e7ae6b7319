package io.pushline.segments;

import io.pushline.common.BoundedLines;
import io.pushline.schema.DeadLetter;
import io.pushline.schema.segments.MemberRow;
import io.pushline.schema.segments.MemberRows;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Reads one user-package file (given as {@code segment TAB path}) into member rows, through Flink's
 * file systems, so {@code s3://} and {@code hdfs://} work as local paths do.
 */
class ReadPackageFile extends RichFlatMapFunction<String, MemberRow> {
    private static final long serialVersionUID = 1L;

    /** Lines are kept to this many characters; a longer one is a malformed uid anyway. */
    static final int MAX_LINE = 4 * MemberRows.MAX_UID_LENGTH;

    @Override
    public void flatMap(String file, Collector<MemberRow> out) throws Exception {
        int tab = file.indexOf('\t');
        String segment = file.substring(0, tab);
        String path = file.substring(tab + 1);
        if (!MemberRows.isSegmentName(segment)) {
            // one bad file name must not fail every build: the file is skipped, and said so
            out.collect(
                    MemberRow.rejected(
                            DeadLetter.of(
                                    path, "file", MemberRows.badSegmentName(segment), segment)));
            return;
        }
        // A file without line breaks is one "line": reading it whole would take the heap.
        try (BoundedLines in = new BoundedLines(PackageFiles.open(path), MAX_LINE)) {
            long lineNo = 0;
            for (String line = in.next(); line != null; line = in.next()) {
                MemberRow row = MemberRows.fromLine(segment, line, path, ++lineNo);
                if (row != null) {
                    out.collect(row);
                }
            }
        }
    }
}
