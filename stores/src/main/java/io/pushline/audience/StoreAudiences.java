package io.pushline.audience;

import io.pushline.audience.eval.AudienceEvaluator;
import io.pushline.audience.eval.Expr;
import io.pushline.audience.eval.ExpressionParser;
import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Audiences from HBase: segments from the {@link SegmentStore} (only those the expression names are
 * read, each validated), the universe and the uids from the {@link IdDictionary}.
 */
public final class StoreAudiences implements Audiences {
    private final Connection connection;
    private final SegmentStore store;
    private final IdDictionary dictionary;
    private final String namespace;
    private SavedAudienceStore saved;

    public StoreAudiences(Connection connection, String namespace, int cacheSize)
            throws IOException {
        this.connection = connection;
        this.store = new SegmentStore(connection, namespace);
        this.dictionary = new IdDictionary(connection, namespace, cacheSize);
        this.namespace = namespace;
    }

    @Override
    public SavedAudienceStore.Version saved(String name) throws IOException {
        SavedAudienceStore.Version v = savedStore().current(name);
        if (v == null) {
            throw new NoSuchAudienceException("no saved audience '" + name + "'");
        }
        return v;
    }

    @Override
    public void usedBy(String name, long version, String msgId, long ts) throws IOException {
        savedStore().recordUse(name, msgId, ts, version);
    }

    /** Opened on first use: most jobs never read a saved audience. */
    private SavedAudienceStore savedStore() throws IOException {
        if (saved == null) {
            saved = new SavedAudienceStore(connection, namespace);
        }
        return saved;
    }

    /** Opens its own connection to {@code quorum} on each subtask. */
    public static Factory factory(String quorum, String namespace, int cacheSize) {
        return () ->
                new StoreAudiences(
                        ConnectionFactory.createConnection(HBaseTables.clientConf(quorum)),
                        namespace,
                        cacheSize);
    }

    @Override
    public IdSet evaluate(String expression) throws IOException {
        Expr e = ExpressionParser.parse(expression);
        return evaluatorFor(expression, e).evaluate(e);
    }

    /**
     * An evaluator holding the segments {@code e} names (read and validated) and the universe.
     *
     * @throws io.pushline.audience.eval.ExpressionException naming an unknown segment
     */
    public AudienceEvaluator evaluatorFor(String expression, Expr e) throws IOException {
        Set<String> named = AudienceEvaluator.names(e);
        Map<String, IdSet> segments = read(named);
        if (segments.size() < named.size()) {
            // Throws for the first unknown name, with the closest existing ones.
            Set<String> known = names();
            known.removeIf(n -> named.contains(n) && !segments.containsKey(n));
            known.addAll(segments.keySet());
            AudienceEvaluator.check(expression, e, known);
        }
        return new AudienceEvaluator(segments, dictionary.universe());
    }

    /** The named segments that exist, validated. */
    public Map<String, IdSet> read(Set<String> names) throws IOException {
        Map<String, IdSet> out = new HashMap<>();
        for (String name : names) {
            byte[] bytes = store.read(name);
            if (bytes != null) {
                out.put(name, IdSet.fromBytes(bytes));
            }
        }
        return out;
    }

    /** Every segment's name. */
    public Set<String> names() throws IOException {
        Set<String> out = new TreeSet<>();
        for (SegmentStore.Info i : store.list()) {
            out.add(i.name());
        }
        return out;
    }

    @Override
    public String[] uids(int[] ids) throws IOException {
        return dictionary.uidsOf(ids);
    }

    @Override
    public void close() throws IOException {
        if (saved != null) {
            saved.close();
        }
        dictionary.close();
        store.close();
        connection.close();
    }
}
