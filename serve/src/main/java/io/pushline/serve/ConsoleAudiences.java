package io.pushline.serve;

import io.pushline.audience.IdDictionary;
import io.pushline.audience.SavedAudienceStore;
import io.pushline.audience.SegmentStore;
import io.pushline.audience.eval.AudienceEvaluator;
import io.pushline.audience.eval.Expr;
import io.pushline.audience.eval.ExpressionParser;
import io.pushline.audience.eval.IdSet;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.client.Connection;

/**
 * What the console reads: segments from the store with their bitmaps held per version (a new
 * version is read once, then every size is computed in memory, exactly), the uid dictionary and the
 * saved audiences.
 */
final class ConsoleAudiences implements AutoCloseable {
    private final SegmentStore segments;
    private final IdDictionary dictionary;
    private final SavedAudienceStore saved;
    private final Map<String, Held> held = new ConcurrentHashMap<>();

    private record Held(long version, IdSet ids) {}

    /** An expression evaluated: the parsed form, its evaluator (for explain) and the result. */
    record Evaluated(Expr expr, AudienceEvaluator evaluator, IdSet ids) {}

    ConsoleAudiences(Connection connection, String namespace) throws IOException {
        this.segments = new SegmentStore(connection, namespace);
        this.dictionary = new IdDictionary(connection, namespace, 100_000);
        this.saved = new SavedAudienceStore(connection, namespace);
    }

    List<SegmentStore.Info> list() throws IOException {
        return segments.list();
    }

    SavedAudienceStore saved() {
        return saved;
    }

    IdDictionary dictionary() {
        return dictionary;
    }

    /**
     * Parses, checks the names against the current segments and evaluates.
     *
     * @throws io.pushline.audience.eval.ExpressionException as the contract words it
     */
    Evaluated evaluate(String expression) throws IOException {
        Expr e = ExpressionParser.parse(expression);
        Map<String, SegmentStore.Info> current = current();
        AudienceEvaluator.check(expression, e, current.keySet());
        Map<String, IdSet> named = new HashMap<>();
        for (String name : AudienceEvaluator.names(e)) {
            named.put(name, bitmap(current.get(name)));
        }
        AudienceEvaluator evaluator = new AudienceEvaluator(named, dictionary.universe());
        return new Evaluated(e, evaluator, evaluator.evaluate(e));
    }

    /** The segments {@code uid} belongs to, by name; null when the dictionary does not know it. */
    List<String> memberships(String uid) throws IOException {
        Integer id = dictionary.idOf(uid);
        if (id == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (SegmentStore.Info i : segments.list()) {
            if (bitmap(i).unwrap().contains(id)) {
                out.add(i.name());
            }
        }
        return out;
    }

    private Map<String, SegmentStore.Info> current() throws IOException {
        Map<String, SegmentStore.Info> out = new LinkedHashMap<>();
        for (SegmentStore.Info i : segments.list()) {
            out.put(i.name(), i);
        }
        Set<String> gone =
                held.keySet().stream().filter(n -> !out.containsKey(n)).collect(Collectors.toSet());
        held.keySet().removeAll(gone);
        return out;
    }

    private IdSet bitmap(SegmentStore.Info info) throws IOException {
        Held h = held.get(info.name());
        if (h != null && h.version() >= info.version()) {
            return h.ids();
        }
        byte[] bytes = segments.read(info.name());
        if (bytes == null) {
            throw new IOException("segment '" + info.name() + "' was removed while being read");
        }
        // Validated on reading: the store's bytes are not trusted.
        IdSet ids = IdSet.fromBytes(bytes);
        // The bytes may be of a newer version than info's: labelled older, they are read again.
        held.put(info.name(), new Held(info.version(), ids));
        return ids;
    }

    @Override
    public void close() throws IOException {
        saved.close();
        dictionary.close();
        segments.close();
    }
}
