package io.pushline.audience;

import io.pushline.common.HBaseTables;
import io.pushline.schema.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Saved audiences: a name for an expression, kept with every earlier version (who saved it, when,
 * the exact size then) and the campaigns that named it. A campaign names the audience; the dispatch
 * job reads the current version when the campaign starts and records which one it used.
 *
 * <p>Row {@code a:<name>}: column {@code v<version, 10 digits>} per version (JSON), {@code
 * c:<msgId>} per campaign (JSON), {@code latest} the current version (8 bytes, the check of a save:
 * two people saving at once cannot both make version n+1).
 */
public final class SavedAudienceStore implements AutoCloseable {
    /** Names as segments: letters, digits, {@code _ - .}, up to 64. */
    public static final Pattern NAME = io.pushline.schema.Target.SAVED_NAME;

    public static final int MAX_EXPRESSION = 4_096;
    public static final int MAX_SAVED_BY = 64;

    private static final byte[] LATEST = Bytes.toBytes("latest");

    private final Table table;

    /** One version as stored. */
    public static final class Version {
        public long version;
        public String expression;
        public String savedBy;
        public long savedAt;
        public long size;

        public Version() {}
    }

    /** A campaign that named the audience, and the version it got. */
    public static final class Use {
        public String msgId;
        public long ts;
        public long version;

        public Use() {}
    }

    /** An audience with its history, newest version first. */
    public record Saved(String name, List<Version> versions, List<Use> campaigns) {
        public Version current() {
            return versions.get(0);
        }
    }

    public SavedAudienceStore(Connection connection, String namespace) throws IOException {
        this.table = connection.getTable(TableName.valueOf(namespace, HBaseTables.SAVED_AUDIENCES));
    }

    /**
     * Checks a name; the message says what is wrong.
     *
     * @throws IllegalArgumentException naming the rule
     */
    public static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "name: 1-64 letters, digits, '_', '-' or '.', got '"
                            + (name == null
                                    ? ""
                                    : name.length() > 80 ? name.substring(0, 80) + "..." : name)
                            + "'");
        }
    }

    /**
     * Saves a new version (the caller checked the expression and measured its size).
     *
     * @return the version written
     * @throws IOException also when someone else saved the same name meanwhile
     */
    public Version save(String name, String expression, String savedBy, long size, long now)
            throws IOException {
        checkName(name);
        byte[] row = row(name);
        Result r = table.get(new Get(row).addColumn(HBaseTables.FAMILY, LATEST));
        byte[] latest = r.getValue(HBaseTables.FAMILY, LATEST);
        Version v = new Version();
        v.version = latest == null ? 1 : Bytes.toLong(latest) + 1;
        v.expression = expression;
        v.savedBy = savedBy;
        v.savedAt = now;
        v.size = size;
        Put put =
                new Put(row)
                        .addColumn(HBaseTables.FAMILY, versionColumn(v.version), json(v))
                        .addColumn(HBaseTables.FAMILY, LATEST, Bytes.toBytes(v.version));
        CheckAndMutate.Builder when = CheckAndMutate.newBuilder(row);
        CheckAndMutate swap =
                latest == null
                        ? when.ifNotExists(HBaseTables.FAMILY, LATEST).build(put)
                        : when.ifEquals(HBaseTables.FAMILY, LATEST, latest).build(put);
        if (!table.checkAndMutate(swap).isSuccess()) {
            throw new IOException("audience '" + name + "' was saved by someone else meanwhile");
        }
        return v;
    }

    /** The audience with its versions and campaigns, or null. */
    public Saved get(String name) throws IOException {
        if (!NAME.matcher(name).matches()) {
            return null;
        }
        Result r = table.get(new Get(row(name)));
        return r.isEmpty() ? null : saved(name, r);
    }

    /** The current version of the audience, or null. */
    public Version current(String name) throws IOException {
        Saved s = get(name);
        return s == null ? null : s.current();
    }

    /** Records that campaign {@code msgId} used {@code version} (idempotent). */
    public void recordUse(String name, String msgId, long ts, long version) throws IOException {
        Use u = new Use();
        u.msgId = msgId;
        u.ts = ts;
        u.version = version;
        table.put(
                new Put(row(name))
                        .addColumn(HBaseTables.FAMILY, Bytes.toBytes("c:" + msgId), json(u)));
    }

    /** Every saved audience, by name. */
    public List<Saved> list() throws IOException {
        List<Saved> out = new ArrayList<>();
        Scan scan = new Scan().withStartRow(Bytes.toBytes("a:")).withStopRow(Bytes.toBytes("a;"));
        try (ResultScanner s = table.getScanner(scan)) {
            for (Result r : s) {
                Saved saved = saved(Bytes.toString(r.getRow()).substring(2), r);
                if (!saved.versions().isEmpty()) {
                    out.add(saved);
                }
            }
        }
        return out;
    }

    private static Saved saved(String name, Result r) {
        List<Version> versions = new ArrayList<>();
        List<Use> uses = new ArrayList<>();
        NavigableMap<byte[], byte[]> cols = r.getFamilyMap(HBaseTables.FAMILY);
        for (Map.Entry<byte[], byte[]> e : cols.entrySet()) {
            String q = Bytes.toString(e.getKey());
            String value = new String(e.getValue(), StandardCharsets.UTF_8);
            if (q.startsWith("v")) {
                versions.add(Json.read(value, Version.class));
            } else if (q.startsWith("c:")) {
                uses.add(Json.read(value, Use.class));
            }
        }
        versions.sort(Comparator.comparingLong((Version v) -> v.version).reversed());
        uses.sort(Comparator.comparingLong((Use u) -> u.ts).reversed());
        return new Saved(name, versions, uses);
    }

    private static byte[] row(String name) {
        return Bytes.toBytes("a:" + name);
    }

    private static byte[] versionColumn(long version) {
        return Bytes.toBytes(String.format("v%010d", version));
    }

    private static byte[] json(Object o) {
        return Json.write(o).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        table.close();
    }
}
