package io.pushline.segments;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The package files under {@code segments.files}: segment name (path minus .txt) to file. Local
 * folders are read with java.nio, since Flink's paths cannot hold the ':' of names like {@code
 * fans:host42.txt}; other file systems (s3, hdfs) through Flink, where such names are written
 * URL-encoded ({@code fans%3Ahost42.txt}, decoded here).
 */
final class PackageFiles {
    private PackageFiles() {}

    /**
     * @throws IllegalArgumentException naming the option when the folder cannot be listed
     */
    static Map<String, String> list(Configuration options) {
        String dir = options.get(SegmentsOptions.FILES);
        Map<String, String> out = new TreeMap<>();
        if (dir == null || dir.isBlank()) {
            return out;
        }
        try {
            if (isLocal(dir)) {
                listLocal(java.nio.file.Path.of(localPath(dir)), out);
            } else {
                Path root = new Path(dir);
                FileSystem fs = root.getFileSystem();
                if (!fs.exists(root) || !fs.getFileStatus(root).isDir()) {
                    throw noFolder(dir);
                }
                walk(fs, root, "", out);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "option '" + SegmentsOptions.FILES.key() + "': cannot list " + dir + ": " + e);
        }
        return out;
    }

    /** Opens a listed file for reading. */
    static BufferedReader open(String file) throws IOException {
        if (isLocal(file)) {
            return Files.newBufferedReader(Paths.get(localPath(file)), StandardCharsets.UTF_8);
        }
        Path path = new Path(file);
        return new BufferedReader(
                new InputStreamReader(path.getFileSystem().open(path), StandardCharsets.UTF_8),
                1 << 16);
    }

    private static void listLocal(java.nio.file.Path root, Map<String, String> out)
            throws IOException {
        if (!Files.isDirectory(root)) {
            throw noFolder(root.toString());
        }
        List<java.nio.file.Path> files;
        try (Stream<java.nio.file.Path> walk = Files.walk(root)) {
            files =
                    walk.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(".txt"))
                            .collect(Collectors.toList());
        }
        for (java.nio.file.Path f : files) {
            String rel = root.relativize(f).toString().replace(java.io.File.separatorChar, '/');
            out.put(name(rel), f.toAbsolutePath().toString());
        }
    }

    private static void walk(FileSystem fs, Path dir, String prefix, Map<String, String> out)
            throws IOException {
        for (FileStatus f : fs.listStatus(dir)) {
            String name = f.getPath().getName();
            if (f.isDir()) {
                walk(fs, f.getPath(), prefix + name + "/", out);
            } else if (name.endsWith(".txt")) {
                out.put(name(prefix + name), f.getPath().toString());
            }
        }
    }

    /** {@code fans/host42.txt} is {@code fans/host42}; {@code %3A} and the like are decoded. */
    static String name(String relative) {
        String bare = relative.substring(0, relative.length() - ".txt".length());
        return bare.contains("%")
                ? URLDecoder.decode(bare.replace("+", "%2B"), StandardCharsets.UTF_8)
                : bare;
    }

    private static boolean isLocal(String path) {
        String scheme =
                path.contains(":/") ? URI.create(path.replace(" ", "%20")).getScheme() : null;
        return scheme == null || scheme.equals("file");
    }

    private static String localPath(String path) {
        return path.startsWith("file:") ? URI.create(path.replace(" ", "%20")).getPath() : path;
    }

    private static IllegalArgumentException noFolder(String dir) {
        return new IllegalArgumentException(
                "option '" + SegmentsOptions.FILES.key() + "': no folder " + dir);
    }
}
