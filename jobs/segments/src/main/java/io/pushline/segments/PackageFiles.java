package io.pushline.segments;

import io.pushline.common.PushlineOptions;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/** The package files under {@code segments.files}: segment name (path minus .txt) to file. */
final class PackageFiles {
    private PackageFiles() {}

    /**
     * @throws IllegalArgumentException naming the option when the folder cannot be listed
     */
    static Map<String, String> list(Configuration options) {
        String dir = options.get(PushlineOptions.SEGMENTS_FILES);
        Map<String, String> out = new TreeMap<>();
        if (dir == null || dir.isBlank()) {
            return out;
        }
        try {
            Path root = new Path(dir);
            FileSystem fs = root.getFileSystem();
            if (!fs.exists(root) || !fs.getFileStatus(root).isDir()) {
                throw new IllegalArgumentException(
                        "option '" + PushlineOptions.SEGMENTS_FILES.key() + "': no folder " + dir);
            }
            walk(fs, root, "", out);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "option '"
                            + PushlineOptions.SEGMENTS_FILES.key()
                            + "': cannot list "
                            + dir
                            + ": "
                            + e);
        }
        return out;
    }

    private static void walk(FileSystem fs, Path dir, String prefix, Map<String, String> out)
            throws IOException {
        for (FileStatus f : fs.listStatus(dir)) {
            String name = f.getPath().getName();
            if (f.isDir()) {
                walk(fs, f.getPath(), prefix + name + "/", out);
            } else if (name.endsWith(".txt")) {
                out.put(
                        prefix + name.substring(0, name.length() - ".txt".length()),
                        f.getPath().toString());
            }
        }
    }
}
