package io.pushline.common;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;

/**
 * The Puts a sink has not sent yet, at most one per row: a later Put of a row replaces the cells it
 * shares with the earlier one and keeps the others. HBase gives two Puts of one cell that travel in
 * the same batch the same timestamp, and a retried batch may land after a newer one, so an upsert
 * sink (a metrics row fired again with a late count) could keep the older value. One Put per row
 * per batch, and batches sent one after the other, make the newest value win.
 */
final class PendingPuts {
    private final Map<ByteBuffer, Put> byRow = new LinkedHashMap<>();

    /** Adds a Put, merged into the pending Put of its row if there is one. */
    void add(Put put) throws IOException {
        ByteBuffer row = ByteBuffer.wrap(put.getRow());
        Put earlier = byRow.get(row);
        byRow.put(row, earlier == null ? put : merge(earlier, put));
    }

    int rows() {
        return byRow.size();
    }

    /** The pending Puts in the order their rows first came, and forgets them. */
    List<Put> drain() {
        List<Put> puts = new ArrayList<>(byRow.values());
        byRow.clear();
        return puts;
    }

    static Put merge(Put earlier, Put later) throws IOException {
        Set<ByteBuffer> replaced = new HashSet<>();
        for (List<Cell> cells : later.getFamilyCellMap().values()) {
            for (Cell c : cells) {
                replaced.add(column(c));
            }
        }
        Put merged = new Put(later.getRow());
        for (List<Cell> cells : earlier.getFamilyCellMap().values()) {
            for (Cell c : cells) {
                if (!replaced.contains(column(c))) {
                    merged.add(c);
                }
            }
        }
        for (List<Cell> cells : later.getFamilyCellMap().values()) {
            for (Cell c : cells) {
                merged.add(c);
            }
        }
        merged.setDurability(later.getDurability());
        later.getAttributesMap().forEach(merged::setAttribute);
        return merged;
    }

    private static ByteBuffer column(Cell c) {
        byte[] f = CellUtil.cloneFamily(c);
        byte[] q = CellUtil.cloneQualifier(c);
        return ByteBuffer.allocate(4 + f.length + q.length).putInt(f.length).put(f).put(q).flip();
    }
}
