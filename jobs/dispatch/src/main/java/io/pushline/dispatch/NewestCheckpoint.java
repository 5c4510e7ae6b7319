package io.pushline.dispatch;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Finds the newest complete checkpoint or savepoint (a folder with {@code _metadata}) under a
 * folder of any filesystem Flink knows: a local path, {@code file://}, {@code s3://} (with Flink's
 * S3 filesystem on the classpath or as a plugin). The folder may be the checkpoint itself, a job's
 * folder ({@code chk-N} inside) or the root of several jobs and savepoints.
 *
 * <p>Listing costs a request per folder on an object store, so within a job's folder only the
 * {@code chk-N} of the highest N that is complete is taken (a higher N is a later checkpoint), and
 * the {@code shared} and {@code taskowned} folders, which hold the state files and can be large,
 * are never listed.
 */
public final class NewestCheckpoint {
    private static final Pattern CHK = Pattern.compile("chk-(\\d+)");
    private static final String METADATA = "_metadata";

    private NewestCheckpoint() {}

    /** The newest complete checkpoint at most two folders below {@code dir}, or null. */
    public static Path under(Path dir) throws IOException {
        dir = normalized(dir);
        FileSystem fs = dir.getFileSystem();
        if (complete(fs, dir)) {
            return dir;
        }
        if (!fs.exists(dir)) {
            return null;
        }
        Found best = search(fs, dir, 2);
        return best == null ? null : best.path;
    }

    /**
     * {@code dir} without a trailing slash: a Path made from a URI keeps it (java.nio's {@code
     * toUri()} adds one to folders) and its {@code getName()} is then empty; the String constructor
     * normalizes it away.
     */
    public static Path normalized(Path dir) {
        return new Path(dir.toUri().toString());
    }

    /** When the checkpoint's {@code _metadata} was written, in epoch milliseconds. */
    public static long takenAt(Path checkpoint) throws IOException {
        return checkpoint
                .getFileSystem()
                .getFileStatus(new Path(checkpoint, METADATA))
                .getModificationTime();
    }

    /** Whether {@code dir} holds {@code _metadata}. */
    public static boolean complete(Path dir) throws IOException {
        return complete(dir.getFileSystem(), dir);
    }

    private static boolean complete(FileSystem fs, Path dir) throws IOException {
        return fs.exists(new Path(dir, METADATA));
    }

    private record Found(Path path, long at) {}

    private static Found search(FileSystem fs, Path dir, int depth) throws IOException {
        FileStatus[] children = fs.listStatus(dir);
        if (children == null) {
            return null;
        }
        List<FileStatus> chks = new ArrayList<>();
        Found best = null;
        for (FileStatus c : children) {
            String name = c.getPath().getName();
            if (!c.isDir() || name.equals("shared") || name.equals("taskowned")) {
                continue;
            }
            if (CHK.matcher(name).matches()) {
                chks.add(c);
            } else if (complete(fs, c.getPath())) {
                best = newer(best, new Found(c.getPath(), takenAt(c.getPath())));
            } else if (depth > 1) {
                best = newer(best, search(fs, c.getPath(), depth - 1));
            }
        }
        chks.sort(Comparator.comparingLong(NewestCheckpoint::number).reversed());
        for (FileStatus c : chks) {
            if (complete(fs, c.getPath())) {
                return newer(best, new Found(c.getPath(), takenAt(c.getPath())));
            }
        }
        return best;
    }

    private static long number(FileStatus chk) {
        Matcher m = CHK.matcher(chk.getPath().getName());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }

    private static Found newer(Found a, Found b) {
        if (a == null) {
            return b;
        }
        return b == null || a.at >= b.at ? a : b;
    }
}
