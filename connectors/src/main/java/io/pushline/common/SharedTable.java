package io.pushline.common;

import java.io.IOException;
import java.util.List;
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
import org.apache.hadoop.hbase.client.Table;

/**
 * One HBase table for many threads (the HTTP server's): HBase's {@code Table} is not thread-safe,
 * so each call takes one of its own from the connection and closes it. That is cheap: tables of one
 * connection share its pools and sockets, and closing one releases nothing they share.
 */
public final class SharedTable {
    private final Connection connection;
    private final TableName name;

    public SharedTable(Connection connection, TableName name) {
        this.connection = connection;
        this.name = name;
    }

    public TableName getName() {
        return name;
    }

    public Result get(Get get) throws IOException {
        try (Table t = connection.getTable(name)) {
            return t.get(get);
        }
    }

    public Result[] get(List<Get> gets) throws IOException {
        try (Table t = connection.getTable(name)) {
            return t.get(gets);
        }
    }

    public boolean exists(Get get) throws IOException {
        try (Table t = connection.getTable(name)) {
            return t.exists(get);
        }
    }

    public void put(Put put) throws IOException {
        try (Table t = connection.getTable(name)) {
            t.put(put);
        }
    }

    public void put(List<Put> puts) throws IOException {
        try (Table t = connection.getTable(name)) {
            t.put(puts);
        }
    }

    public void delete(List<Delete> deletes) throws IOException {
        try (Table t = connection.getTable(name)) {
            t.delete(deletes);
        }
    }

    public CheckAndMutateResult checkAndMutate(CheckAndMutate cas) throws IOException {
        try (Table t = connection.getTable(name)) {
            return t.checkAndMutate(cas);
        }
    }

    public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> cas) throws IOException {
        try (Table t = connection.getTable(name)) {
            return t.checkAndMutate(cas);
        }
    }

    public long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount)
            throws IOException {
        try (Table t = connection.getTable(name)) {
            return t.incrementColumnValue(row, family, qualifier, amount);
        }
    }

    /** A scanner; it outlives the table it came from (closing a table leaves its scanners). */
    public ResultScanner getScanner(Scan scan) throws IOException {
        try (Table t = connection.getTable(name)) {
            return t.getScanner(scan);
        }
    }
}
