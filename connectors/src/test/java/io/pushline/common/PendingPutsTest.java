package io.pushline.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class PendingPutsTest {
    private static final byte[] F = Bytes.toBytes("m");

    private static Put put(String row, String... columnsAndValues) {
        Put p = new Put(Bytes.toBytes(row));
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            p.addColumn(
                    F, Bytes.toBytes(columnsAndValues[i]), Bytes.toBytes(columnsAndValues[i + 1]));
        }
        return p;
    }

    private static String value(Put p, String column) {
        var cells = p.get(F, Bytes.toBytes(column));
        assertThat(cells).hasSize(1);
        return Bytes.toString(CellUtil.cloneValue(cells.get(0)));
    }

    @Test
    void aRowWrittenAgainBeforeSendingKeepsOnlyTheNewestValueOfEachColumn() throws Exception {
        PendingPuts pending = new PendingPuts();
        pending.add(put("row-a", "passed", "10", "sent", "8", "drops", "x"));
        pending.add(put("row-b", "passed", "1"));
        pending.add(put("row-a", "passed", "14", "sent", "10"));

        assertThat(pending.rows()).isEqualTo(2);
        List<Put> batch = pending.drain();
        assertThat(batch)
                .extracting(p -> Bytes.toString(p.getRow()))
                .containsExactly("row-a", "row-b");
        Put a = batch.get(0);
        assertThat(value(a, "passed")).isEqualTo("14");
        assertThat(value(a, "sent")).isEqualTo("10");
        // A column only the earlier write had is kept.
        assertThat(value(a, "drops")).isEqualTo("x");
        assertThat(a.size()).isEqualTo(3);
        assertThat(pending.rows()).isZero();
        assertThat(pending.drain()).isEmpty();
    }
}
