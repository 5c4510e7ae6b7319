package io.pushline.audience;

import io.pushline.common.HBaseTables;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Audience segments in the HBase table {@code segments}: a segment's serialized bitmap is split
 * into chunk rows of at most {@link #CHUNK} bytes (a 100M-member segment stays far below HBase's
 * cell limits), and a meta row names the version readers use. A new version is written in full
 * before its meta row is switched with check-and-mutate, so a reader never sees half a segment; the
 * old version's chunks are removed afterwards. Bytes are opaque here: callers run-optimize before
 * writing and validate after reading (IdSet).
 */
public final class SegmentStore implements AutoCloseable {
    public static final String TABLE = HBaseTables.SEGMENTS;
    static final int CHUNK = 2 << 20;
    private static final byte[] VERSION = Bytes.toBytes("version");
    private static final byte[] CARDINALITY = Bytes.toBytes("cardinality");
    private static final byte[] BUILT_AT = Bytes.toBytes("builtAt");
    private static final byte[] SOURCE = Bytes.toBytes("source");
    private static final byte[] CHUNKS = Bytes.toBytes("chunks");
    private static final byte[] BYTES = Bytes.toBytes("b");

    private final Table table;

    public SegmentStore(Connection connection, String namespace) throws IOException {
        this.table = connection.getTable(table(namespace));
    }

    public static TableName table(String namespace) {
        return TableName.valueOf(namespace, TABLE);
    }

    /** What the meta row says of a segment. */
    public record Info(
            String name, long version, long cardinality, long builtAt, String source, int chunks) {}

    /**
     * Writes a new version of {@code name} and makes it current.
     *
     * @return the new version
     * @throws IOException also when another writer replaced the segment meanwhile
     */
    public long write(String name, byte[] bitmap, long cardinality, String source)
            throws IOException {
        Info old = info(name);
        long version = old == null ? 1 : old.version + 1;
        int chunks = Math.max(1, (bitmap.length + CHUNK - 1) / CHUNK);
        List<Put> puts = new ArrayList<>(chunks);
        for (int c = 0; c < chunks; c++) {
            byte[] part =
                    Arrays.copyOfRange(bitmap, c * CHUNK, Math.min(bitmap.length, (c + 1) * CHUNK));
            puts.add(
                    new Put(chunkRow(name, version, c)).addColumn(HBaseTables.FAMILY, BYTES, part));
        }
        table.put(puts);
        byte[] meta = metaRow(name);
        Put switchTo =
                new Put(meta)
                        .addColumn(HBaseTables.FAMILY, VERSION, Bytes.toBytes(version))
                        .addColumn(HBaseTables.FAMILY, CARDINALITY, Bytes.toBytes(cardinality))
                        .addColumn(
                                HBaseTables.FAMILY,
                                BUILT_AT,
                                Bytes.toBytes(System.currentTimeMillis()))
                        .addColumn(HBaseTables.FAMILY, SOURCE, Bytes.toBytes(source))
                        .addColumn(HBaseTables.FAMILY, CHUNKS, Bytes.toBytes(chunks));
        CheckAndMutate.Builder when = CheckAndMutate.newBuilder(meta);
        CheckAndMutate swap =
                old == null
                        ? when.ifNotExists(HBaseTables.FAMILY, VERSION).build(switchTo)
                        : when.ifEquals(HBaseTables.FAMILY, VERSION, Bytes.toBytes(old.version))
                                .build(switchTo);
        if (!table.checkAndMutate(swap).isSuccess()) {
            deleteChunks(name, version, chunks);
            throw new IOException("segment '" + name + "' was replaced by another writer; retry");
        }
        if (old != null) {
            deleteChunks(name, old.version, old.chunks);
        }
        return version;
    }

    /** The current version's bytes, or null when there is no such segment. */
    public byte[] read(String name) throws IOException {
        for (int attempt = 0; attempt < 3; attempt++) {
            Info info = info(name);
            if (info == null) {
                return null;
            }
            List<Get> gets = new ArrayList<>(info.chunks);
            for (int c = 0; c < info.chunks; c++) {
                gets.add(new Get(chunkRow(name, info.version, c)));
            }
            Result[] parts = table.get(gets);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            boolean complete = true;
            for (Result r : parts) {
                byte[] b = r.getValue(HBaseTables.FAMILY, BYTES);
                if (b == null) {
                    complete = false;
                    break;
                }
                out.write(b);
            }
            if (complete) {
                return out.toByteArray();
            }
            // Replaced while we read: the meta row now names a newer version.
        }
        throw new IOException("segment '" + name + "' keeps changing while being read");
    }

    public Info info(String name) throws IOException {
        Result r = table.get(new Get(metaRow(name)));
        return r.isEmpty() ? null : info(name, r);
    }

    /** Every segment, by name. */
    public List<Info> list() throws IOException {
        List<Info> out = new ArrayList<>();
        Scan scan = new Scan().withStartRow(Bytes.toBytes("m:")).withStopRow(Bytes.toBytes("m;"));
        try (ResultScanner s = table.getScanner(scan)) {
            for (Result r : s) {
                out.add(info(Bytes.toString(r.getRow()).substring(2), r));
            }
        }
        return out;
    }

    private static Info info(String name, Result r) {
        return new Info(
                name,
                Bytes.toLong(r.getValue(HBaseTables.FAMILY, VERSION)),
                Bytes.toLong(r.getValue(HBaseTables.FAMILY, CARDINALITY)),
                Bytes.toLong(r.getValue(HBaseTables.FAMILY, BUILT_AT)),
                Bytes.toString(r.getValue(HBaseTables.FAMILY, SOURCE)),
                Bytes.toInt(r.getValue(HBaseTables.FAMILY, CHUNKS)));
    }

    private void deleteChunks(String name, long version, int chunks) throws IOException {
        List<Delete> deletes = new ArrayList<>(chunks);
        for (int c = 0; c < chunks; c++) {
            deletes.add(new Delete(chunkRow(name, version, c)));
        }
        table.delete(deletes);
    }

    private static byte[] metaRow(String name) {
        return Bytes.toBytes("m:" + name);
    }

    static byte[] chunkRow(String name, long version, int chunk) {
        return Bytes.add(
                Bytes.toBytes("c:" + name + "\u0000"),
                Bytes.toBytes(version),
                Bytes.toBytes(chunk));
    }

    @Override
    public void close() throws IOException {
        table.close();
    }
}
