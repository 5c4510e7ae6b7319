package io.pushline.testkit;

import io.pushline.common.HBaseTables;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/** Reads a whole HBase table as text, for ITCases' assertions. */
public final class HBaseRows {
    private HBaseRows() {}

    /** Each row as {@code row} plus qualifier → value, in row order. */
    public static List<Map<String, String>> scan(Connection connection, TableName table)
            throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (Table t = connection.getTable(table);
                ResultScanner s = t.getScanner(new Scan())) {
            for (Result r : s) {
                Map<String, String> m = new TreeMap<>();
                m.put("row", Bytes.toString(r.getRow()));
                for (Cell c : r.listCells()) {
                    m.put(
                            Bytes.toString(CellUtil.cloneQualifier(c)),
                            Bytes.toString(CellUtil.cloneValue(c)));
                }
                rows.add(m);
            }
        }
        return rows;
    }

    /** A cell of the family {@code d} as text, null when absent. */
    public static String cell(Result r, String column) {
        return Bytes.toString(r.getValue(HBaseTables.FAMILY, Bytes.toBytes(column)));
    }
}
