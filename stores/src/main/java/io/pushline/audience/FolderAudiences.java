package io.pushline.audience;

import io.pushline.audience.eval.AudienceEvaluator;
import io.pushline.audience.eval.IdSet;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Audiences from a segments folder (folder mode of docs/audience-expressions.md). */
public final class FolderAudiences implements Audiences {
    private final SegmentFolder folder;
    private final AudienceEvaluator evaluator;

    public FolderAudiences(SegmentFolder folder) {
        this.folder = folder;
        this.evaluator = new AudienceEvaluator(folder.segments, folder.universe);
    }

    /** A factory that loads {@code dir} (and the optional universe file) on each subtask. */
    public static Factory factory(Path dir, Path universe) {
        String d = dir.toString();
        String u = universe == null ? null : universe.toString();
        return () ->
                new FolderAudiences(
                        SegmentFolder.load(Paths.get(d), u == null ? null : Paths.get(u)));
    }

    @Override
    public IdSet evaluate(String expression) {
        return evaluator.evaluate(expression);
    }

    @Override
    public String[] uids(int[] ids) {
        String[] out = new String[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = folder.uid(ids[i]);
        }
        return out;
    }

    @Override
    public void close() throws IOException {}
}
