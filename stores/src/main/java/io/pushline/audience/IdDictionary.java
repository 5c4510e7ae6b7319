package io.pushline.audience;

import io.pushline.audience.eval.IdSet;
import io.pushline.common.HBaseTables;
import io.pushline.common.SharedTable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.roaringbitmap.RoaringBitmap;

/**
 * uid ↔ dense int id, in the HBase table {@code uid_dict}: rows {@code u:<uid>} → id and {@code
 * i:<id>} → uid, and a counter row. An id is never reused or changed and no two uids share one,
 * also with concurrent writers: ids come from an atomic counter and a uid's row is written only if
 * absent (check-and-mutate); a writer that loses the race takes the winner's id and its own id is
 * left unused. Lookups go through a bounded cache. Safe to share between threads.
 */
public final class IdDictionary implements AutoCloseable {
    public static final String TABLE = HBaseTables.UID_DICT;
    private static final byte[] COUNTER_ROW = Bytes.toBytes("!counter");
    private static final byte[] NEXT = Bytes.toBytes("next");

    /** Ids taken from the counter and claimed by nobody (lost races), as a Roaring bitmap. */
    private static final byte[] LOST = Bytes.toBytes("lost");

    private static final byte[] ID = Bytes.toBytes("id");
    private static final byte[] UID = Bytes.toBytes("uid");

    private final SharedTable table;
    private final Map<String, Integer> idCache;
    private final Map<Integer, String> uidCache;

    public IdDictionary(Connection connection, String namespace, int cacheSize) throws IOException {
        this(connection, table(namespace), cacheSize);
    }

    /** A dictionary of the same layout in another table (the inbox's message ids). */
    public IdDictionary(Connection connection, TableName table, int cacheSize) throws IOException {
        this.table = new SharedTable(connection, table);
        this.idCache = lru(cacheSize);
        this.uidCache = lru(cacheSize);
    }

    public static TableName table(String namespace) {
        return TableName.valueOf(namespace, TABLE);
    }

    /** The uid's id, or null when the dictionary has none. */
    public Integer idOf(String uid) throws IOException {
        Integer cached = idCache.get(uid);
        if (cached != null) {
            return cached;
        }
        Result r = table.get(new Get(forward(uid)).addColumn(HBaseTables.FAMILY, ID));
        if (r.isEmpty()) {
            return null;
        }
        int id = Bytes.toInt(r.getValue(HBaseTables.FAMILY, ID));
        remember(uid, id);
        return id;
    }

    /**
     * The ids of those of {@code uids} the dictionary has, in one batched read for the uncached.
     */
    public Map<String, Integer> idsOf(Collection<String> uids) throws IOException {
        Map<String, Integer> out = new HashMap<>(uids.size() * 2);
        List<String> unknown = new ArrayList<>();
        List<Get> gets = new ArrayList<>();
        for (String uid : uids) {
            Integer cached = idCache.get(uid);
            if (cached != null) {
                out.put(uid, cached);
            } else if (!out.containsKey(uid)) {
                out.put(uid, null);
                unknown.add(uid);
                gets.add(new Get(forward(uid)).addColumn(HBaseTables.FAMILY, ID));
            }
        }
        if (gets.isEmpty()) {
            return out;
        }
        Result[] found = table.get(gets);
        for (int i = 0; i < found.length; i++) {
            String uid = unknown.get(i);
            if (found[i].isEmpty()) {
                out.remove(uid);
            } else {
                int id = Bytes.toInt(found[i].getValue(HBaseTables.FAMILY, ID));
                out.put(uid, id);
                remember(uid, id);
            }
        }
        return out;
    }

    /** The uid of an id, or null. */
    public String uidOf(int id) throws IOException {
        String cached = uidCache.get(id);
        if (cached != null) {
            return cached;
        }
        Result r = table.get(new Get(reverse(id)).addColumn(HBaseTables.FAMILY, UID));
        if (r.isEmpty()) {
            return null;
        }
        String uid = Bytes.toString(r.getValue(HBaseTables.FAMILY, UID));
        remember(uid, id);
        return uid;
    }

    /**
     * The uid of each id (null where there is none), in one read for the uncached: a range scan
     * when they are ascending and fill at least half of their range (a campaign's chunk of a dense
     * audience: one scanner instead of one per row), batched gets otherwise.
     */
    public String[] uidsOf(int[] ids) throws IOException {
        String[] out = new String[ids.length];
        int[] at = new int[ids.length];
        int n = 0;
        for (int i = 0; i < ids.length; i++) {
            String cached = uidCache.get(ids[i]);
            if (cached != null) {
                out[i] = cached;
            } else {
                at[n++] = i;
            }
        }
        if (n == 0) {
            return out;
        }
        if (ascending(ids, at, n) && (long) ids[at[n - 1]] - ids[at[0]] < 2L * n) {
            scan(ids, at, n, out);
        } else {
            get(ids, at, n, out);
        }
        return out;
    }

    private static boolean ascending(int[] ids, int[] at, int n) {
        if (ids[at[0]] < 0) {
            return false; // the row keys sort as unsigned bytes
        }
        for (int j = 1; j < n; j++) {
            if (ids[at[j]] <= ids[at[j - 1]]) {
                return false;
            }
        }
        return true;
    }

    private void scan(int[] ids, int[] at, int n, String[] out) throws IOException {
        int first = ids[at[0]];
        int last = ids[at[n - 1]];
        Scan scan =
                new Scan()
                        .withStartRow(reverse(first))
                        .withStopRow(reverse(last), true)
                        // the family, not the column: a reverse row holds only its uid, and a
                        // scan that names a column seeks to the next row after each one (a
                        // reseek in every store file; 4-8% of a 400,000-row scan's time)
                        .addFamily(HBaseTables.FAMILY)
                        .setCaching(Math.min(last - first + 1, 10_000));
        int j = 0;
        try (ResultScanner rows = table.getScanner(scan)) {
            for (Result r : rows) {
                int id = Bytes.toInt(r.getRow(), REVERSE_PREFIX.length);
                while (j < n && ids[at[j]] < id) {
                    j++; // ids without a row: lost in an assignment race, nobody's
                }
                if (j == n) {
                    break;
                }
                if (ids[at[j]] == id) {
                    int i = at[j];
                    out[i] = Bytes.toString(r.getValue(HBaseTables.FAMILY, UID));
                    remember(out[i], id);
                }
            }
        }
    }

    private void get(int[] ids, int[] at, int n, String[] out) throws IOException {
        List<Get> gets = new ArrayList<>(n);
        for (int j = 0; j < n; j++) {
            gets.add(new Get(reverse(ids[at[j]])).addColumn(HBaseTables.FAMILY, UID));
        }
        Result[] found = table.get(gets);
        for (int j = 0; j < found.length; j++) {
            if (!found[j].isEmpty()) {
                int i = at[j];
                out[i] = Bytes.toString(found[j].getValue(HBaseTables.FAMILY, UID));
                remember(out[i], ids[i]);
            }
        }
    }

    /** How many ids were ever handed out: every id is below this. */
    public int size() throws IOException {
        Result r = table.get(new Get(COUNTER_ROW).addColumn(HBaseTables.FAMILY, NEXT));
        return r.isEmpty() ? 0 : (int) Bytes.toLong(r.getValue(HBaseTables.FAMILY, NEXT));
    }

    /**
     * The universe of audience expressions (what {@code NOT} is taken against): every id handed
     * out, without those a writer lost in an assignment race (they have no uid). Ids a writer took
     * and then crashed before claiming are not known here; they are rare and reach no device.
     */
    public IdSet universe() throws IOException {
        Result r =
                table.get(
                        new Get(COUNTER_ROW)
                                .addColumn(HBaseTables.FAMILY, NEXT)
                                .addColumn(HBaseTables.FAMILY, LOST));
        byte[] next = r.getValue(HBaseTables.FAMILY, NEXT);
        IdSet all = IdSet.range(next == null ? 0 : (int) Bytes.toLong(next));
        byte[] lost = r.getValue(HBaseTables.FAMILY, LOST);
        if (lost != null) {
            all.unwrap().andNot(IdSet.fromBytes(lost).unwrap());
        }
        return all;
    }

    /** The uid's id, assigning the next free one on first sight. */
    public int assign(String uid) throws IOException {
        return assignAll(List.of(uid)).get(uid);
    }

    /**
     * Ids for all {@code uids}, assigning new ones in bulk: one read per batch, one counter
     * increment for all the new uids, one conditional write per new uid.
     */
    public Map<String, Integer> assignAll(List<String> uids) throws IOException {
        Map<String, Integer> out = idsOf(uids);
        Set<String> unknown = new LinkedHashSet<>();
        for (String uid : uids) {
            if (!out.containsKey(uid)) {
                unknown.add(uid);
            }
        }
        List<String> fresh = new ArrayList<>(unknown);
        if (fresh.isEmpty()) {
            return out;
        }
        long last = table.incrementColumnValue(COUNTER_ROW, HBaseTables.FAMILY, NEXT, fresh.size());
        long first = last - fresh.size();
        if (last > Integer.MAX_VALUE) {
            throw new IllegalStateException(table.getName() + " ran out of int ids");
        }
        // The reverse rows first: the counter's ids are this writer's alone, so these writes
        // cannot clash, and a crash before the claims below leaves only ids nobody's segment holds
        // (the uid gets another id next time). Claims first would leave, after a crash between
        // the two writes, a uid whose id leads nowhere: no campaign could ever reach it.
        List<Put> reverse = new ArrayList<>(fresh.size());
        for (int i = 0; i < fresh.size(); i++) {
            reverse.add(
                    new Put(reverse((int) (first + i)))
                            .addColumn(HBaseTables.FAMILY, UID, Bytes.toBytes(fresh.get(i))));
        }
        table.put(reverse);
        List<CheckAndMutate> claims = new ArrayList<>(fresh.size());
        for (int i = 0; i < fresh.size(); i++) {
            byte[] row = forward(fresh.get(i));
            claims.add(
                    CheckAndMutate.newBuilder(row)
                            .ifNotExists(HBaseTables.FAMILY, ID)
                            .build(
                                    new Put(row)
                                            .addColumn(
                                                    HBaseTables.FAMILY,
                                                    ID,
                                                    Bytes.toBytes((int) (first + i)))));
        }
        List<CheckAndMutateResult> results = table.checkAndMutate(claims);
        List<String> refused = new ArrayList<>();
        List<Integer> refusedIds = new ArrayList<>();
        for (int i = 0; i < fresh.size(); i++) {
            String uid = fresh.get(i);
            int id = (int) (first + i);
            if (results.get(i).isSuccess()) {
                out.put(uid, id);
                remember(uid, id);
            } else {
                refused.add(uid);
                refusedIds.add(id);
            }
        }
        if (refused.isEmpty()) {
            return out;
        }
        // A refused claim is not always another writer's: when the answer to a batch is lost (a
        // timeout), the client sends it again, and the claims the first attempt made are then
        // refused by themselves. The uid holding this writer's id is this writer's: deleting its
        // reverse row would leave a uid no campaign reaches (one chaos run lost 14,147 of a
        // batch of 20,000 that way).
        Map<String, Integer> claimed = idsOf(refused);
        List<Delete> unused = new ArrayList<>();
        List<Integer> lostIds = new ArrayList<>();
        for (int i = 0; i < refused.size(); i++) {
            String uid = refused.get(i);
            int ours = refusedIds.get(i);
            Integer theirs = claimed.get(uid);
            if (theirs == null) {
                throw new IOException(
                        table.getName() + ": the claim of a uid was refused but nobody holds it");
            }
            out.put(uid, theirs);
            if (theirs != ours) {
                // Another writer claimed the uid first: its id stands, ours stays unused.
                lostIds.add(ours);
                unused.add(new Delete(reverse(ours)));
            }
        }
        if (!unused.isEmpty()) {
            markLost(lostIds);
            table.delete(unused);
        }
        return out;
    }

    /**
     * Adds {@code ids} (taken from the counter, claimed by nobody) to the lost set, so that {@link
     * #universe()} leaves them out: read, merge, write if nobody wrote meanwhile, else again.
     */
    private void markLost(List<Integer> ids) throws IOException {
        RoaringBitmap add = new RoaringBitmap();
        ids.forEach(add::add);
        for (int attempt = 1; ; attempt++) {
            Result r = table.get(new Get(COUNTER_ROW).addColumn(HBaseTables.FAMILY, LOST));
            byte[] old = r.getValue(HBaseTables.FAMILY, LOST);
            RoaringBitmap merged =
                    old == null ? add : RoaringBitmap.or(add, IdSet.fromBytes(old).unwrap());
            Put put =
                    new Put(COUNTER_ROW)
                            .addColumn(HBaseTables.FAMILY, LOST, IdSet.wrap(merged).toBytes());
            CheckAndMutate.Builder when = CheckAndMutate.newBuilder(COUNTER_ROW);
            CheckAndMutate swap =
                    old == null
                            ? when.ifNotExists(HBaseTables.FAMILY, LOST).build(put)
                            : when.ifEquals(HBaseTables.FAMILY, LOST, old).build(put);
            if (table.checkAndMutate(swap).isSuccess()) {
                return;
            }
            if (attempt == 100) {
                throw new IOException(
                        table.getName() + ": could not record lost ids, too many writers at once");
            }
        }
    }

    private void remember(String uid, int id) {
        idCache.put(uid, id);
        uidCache.put(id, uid);
    }

    private static byte[] forward(String uid) {
        return Bytes.toBytes("u:" + uid);
    }

    private static final byte[] REVERSE_PREFIX = Bytes.toBytes("i:");

    private static byte[] reverse(int id) {
        return Bytes.add(REVERSE_PREFIX, Bytes.toBytes(id));
    }

    private static <K, V> Map<K, V> lru(int max) {
        return java.util.Collections.synchronizedMap(
                new LinkedHashMap<K, V>(16, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                        return size() > max;
                    }
                });
    }

    @Override
    public void close() throws IOException {
        // nothing held: each call took its own table
    }
}
