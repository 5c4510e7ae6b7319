package io.pushline.serve;

import io.pushline.common.HBaseTables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Idempotency keys of the app API, in the HBase table {@code api_idempotency} (its cells live 24
 * hours), so a key holds across restarts and between servers sharing one HBase.
 *
 * <p>A call with a key first claims the key's row with a check-and-put (only if the row is absent):
 * the row holds the body's digest and the answer the call will give (its msgId or taskId and {@code
 * ts}, decided before anything is written). Of two calls at the same moment exactly one claims the
 * row and writes its line; the other waits until the claim is done and answers the same. When the
 * claimed call could not write, it deletes its claim, and a retry starts afresh.
 *
 * <p>A server that dies between claiming and finishing leaves a pending claim: after {@link
 * #STALE_MS} a retry takes it over and writes the same line again (same msgId and {@code ts}),
 * which at worst repeats a line the server had committed just before dying; the dispatch gate's
 * dedupe drops a repeated msgId for a device.
 */
final class Idempotency implements AutoCloseable {
    static final String TABLE = "api_idempotency";
    static final int TTL_SECONDS = 86_400;

    /** A pending claim older than this is taken over by a retry. */
    static final long STALE_MS = 30_000;

    private static final byte[] F = HBaseTables.FAMILY;
    private static final byte[] DIGEST = Bytes.toBytes("h");
    private static final byte[] ANSWER = Bytes.toBytes("a");
    private static final byte[] STATE = Bytes.toBytes("s");
    private static final byte[] OWNER = Bytes.toBytes("o");
    private static final byte[] PENDING = Bytes.toBytes("pending");
    private static final byte[] DONE = Bytes.toBytes("done");

    private final Table table;
    private final long waitMs;

    /** What a key's row says about a call. */
    sealed interface Outcome permits Claimed, Replay, Conflict {}

    /**
     * This call owns the key: it writes the line of {@code answer} (its own, or a dead claim's it
     * took over), then {@link #done} or {@link #release}.
     */
    record Claimed(byte[] row, byte[] owner, String answer) implements Outcome {}

    /** An earlier call with the same body: its answer. */
    record Replay(String answer) implements Outcome {}

    /** An earlier call with another body. */
    record Conflict() implements Outcome {}

    /**
     * @param waitMs how long a call waits for a concurrent one with the same key before giving up
     */
    Idempotency(Connection hbase, String namespace, long waitMs) throws IOException {
        TableName name = TableName.valueOf(namespace, TABLE);
        try (Admin admin = hbase.getAdmin()) {
            HBaseTables.createMissing(
                    admin,
                    List.of(
                            TableDescriptorBuilder.newBuilder(name)
                                    .setColumnFamily(
                                            ColumnFamilyDescriptorBuilder.newBuilder(F)
                                                    .setTimeToLive(TTL_SECONDS)
                                                    .build())
                                    .build()));
        }
        this.table = hbase.getTable(name);
        this.waitMs = waitMs;
    }

    /**
     * Claims {@code key} of app key {@code app} for a call with {@code body} that would answer
     * {@code answer}, or tells what an earlier call with that key answered.
     *
     * @throws IOException HBase did not answer, or a concurrent call held the key too long
     */
    Outcome claim(String app, String key, byte[] body, String answer) throws IOException {
        byte[] row = row(app, key);
        byte[] digest = sha256(body);
        long deadline = System.currentTimeMillis() + waitMs;
        while (true) {
            byte[] owner = Bytes.toBytes(UUID.randomUUID().toString());
            Put claim =
                    new Put(row)
                            .addColumn(F, DIGEST, digest)
                            .addColumn(F, ANSWER, Bytes.toBytes(answer))
                            .addColumn(F, STATE, PENDING)
                            .addColumn(F, OWNER, owner);
            if (table.checkAndMutate(
                            CheckAndMutate.newBuilder(row).ifNotExists(F, DIGEST).build(claim))
                    .isSuccess()) {
                return new Claimed(row, owner, answer);
            }
            Result r = table.get(new Get(row).addFamily(F));
            if (r.isEmpty()) {
                continue; // released or expired meanwhile
            }
            if (!Arrays.equals(digest, r.getValue(F, DIGEST))) {
                return new Conflict();
            }
            if (Arrays.equals(DONE, r.getValue(F, STATE))) {
                return new Replay(Bytes.toString(r.getValue(F, ANSWER)));
            }
            long claimedAt = r.getColumnLatestCell(F, STATE).getTimestamp();
            if (System.currentTimeMillis() - claimedAt > STALE_MS) {
                Put takeOver = new Put(row).addColumn(F, OWNER, owner).addColumn(F, STATE, PENDING);
                if (table.checkAndMutate(
                                CheckAndMutate.newBuilder(row)
                                        .ifEquals(F, OWNER, r.getValue(F, OWNER))
                                        .build(takeOver))
                        .isSuccess()) {
                    // the same answer as the dead claim's: the same line goes again
                    return new Claimed(row, owner, Bytes.toString(r.getValue(F, ANSWER)));
                }
                continue;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("a call with the same Idempotency-Key is still running");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException();
            }
        }
    }

    /** The claimed call wrote its line: later calls replay its answer. */
    void done(Claimed c) throws IOException {
        table.checkAndMutate(
                CheckAndMutate.newBuilder(c.row())
                        .ifEquals(F, OWNER, c.owner())
                        .build(new Put(c.row()).addColumn(F, STATE, DONE)));
    }

    /** The claimed call wrote nothing: the key is free again. */
    void release(Claimed c) throws IOException {
        table.checkAndMutate(
                CheckAndMutate.newBuilder(c.row())
                        .ifEquals(F, OWNER, c.owner())
                        .build(new Delete(c.row())));
    }

    /** The row of a key: app keys do not share idempotency keys. */
    static byte[] row(String app, String key) {
        return sha256((app + "\n" + key).getBytes(StandardCharsets.UTF_8));
    }

    static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Whether {@code key} is a valid Idempotency-Key: 1 to 128 printable ASCII characters. */
    static boolean valid(String key) {
        if (key == null || key.isEmpty() || key.length() > 128) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        table.close();
    }
}
