package io.pushline.audience;

import io.pushline.audience.eval.IdSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.roaringbitmap.RoaringBitmap;

/**
 * Segments from a folder (docs/audience-expressions.md, folder mode): one file {@code NAME.txt} per
 * segment (in subfolders for names with '/'), one uid per line, surrounding whitespace and blank
 * lines ignored. Uids get dense ids in sorted order; the universe is every uid of the folder plus
 * those of the optional universe file.
 */
public final class SegmentFolder {
    public final Map<String, IdSet> segments;
    public final IdSet universe;
    private final String[] uids;

    private SegmentFolder(Map<String, IdSet> segments, IdSet universe, String[] uids) {
        this.segments = segments;
        this.universe = universe;
        this.uids = uids;
    }

    public static SegmentFolder load(Path dir, Path universeFile) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("no segments folder " + dir);
        }
        Map<String, List<String>> members = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files =
                    walk.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(".txt"))
                            .collect(Collectors.toList());
        }
        TreeSet<String> all = new TreeSet<>();
        for (Path f : files) {
            String rel = dir.relativize(f).toString().replace(java.io.File.separatorChar, '/');
            String name = rel.substring(0, rel.length() - ".txt".length());
            List<String> ids = lines(f);
            members.put(name, ids);
            all.addAll(ids);
        }
        if (universeFile != null) {
            all.addAll(lines(universeFile));
        }
        String[] sorted = all.toArray(new String[0]);
        Map<String, Integer> idOf = new HashMap<>(sorted.length * 2);
        for (int i = 0; i < sorted.length; i++) {
            idOf.put(sorted[i], i);
        }
        Map<String, IdSet> segments = new HashMap<>();
        for (Map.Entry<String, List<String>> e : members.entrySet()) {
            RoaringBitmap b = new RoaringBitmap();
            for (String uid : e.getValue()) {
                b.add(idOf.get(uid).intValue());
            }
            segments.put(e.getKey(), IdSet.wrap(b));
        }
        return new SegmentFolder(
                Collections.unmodifiableMap(segments), IdSet.range(sorted.length), sorted);
    }

    /** The uid of a dense id. */
    public String uid(int id) {
        return uids[id];
    }

    private static List<String> lines(Path f) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
            String uid = line.strip();
            if (!uid.isEmpty()) {
                out.add(uid);
            }
        }
        return out;
    }
}
