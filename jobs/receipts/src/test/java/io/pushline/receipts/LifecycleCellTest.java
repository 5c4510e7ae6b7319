package io.pushline.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.receipts.Lifecycle;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.junit.jupiter.api.Test;

/** The lifecycle's one HBase cell: every field back, and cells written before fields were added. */
class LifecycleCellTest {
    @Test
    void everyFieldComesBack() {
        Lifecycle l = new Lifecycle();
        l.msgId = "m";
        l.deviceId = "d";
        l.uid = "u";
        l.vendor = "longconn";
        l.msgType = "news";
        l.decision = "PASS";
        l.code = 0;
        l.decidedAt = 1;
        l.sentAt = 2;
        l.inboxReadAt = 3;
        l.lcRetries = 2;
        l.lcRetryAt = new long[] {10, 20};
        l.lcAckedAt = 25;
        l.lcCompensationMs = 24;
        l.lcFallbackAt = 30;
        l.lcFallbackVendor = "huawei";
        l.lcGiveUpAt = 40;
        Lifecycle back = ReceiptTables.lifecycle(result(ReceiptTables.put(l)));
        assertThat(back).usingRecursiveComparison().ignoringFields("pending").isEqualTo(l);
    }

    @Test
    void aCellOfTheFirstLayoutStillReads() {
        Lifecycle l = new Lifecycle();
        l.msgId = "m";
        l.deviceId = "d";
        l.vendor = "fcm";
        l.sentAt = 7;
        Put p = ReceiptTables.put(l);
        Cell c = p.get(ReceiptTables.COUNTS, ReceiptTables.LIFECYCLE_COLUMN).get(0);
        byte[] full = CellUtil.cloneValue(c);
        // the first layout ended after the token_invalid time
        int tail = 8 + 4 + 1 + 8 + 8 + 8 + 1 + 8;
        Put old =
                new Put(p.getRow())
                        .addColumn(
                                ReceiptTables.COUNTS,
                                ReceiptTables.LIFECYCLE_COLUMN,
                                Arrays.copyOf(full, full.length - tail));
        Lifecycle back = ReceiptTables.lifecycle(result(old));
        assertThat(back.sentAt).isEqualTo(7);
        assertThat(back.vendor).isEqualTo("fcm");
        assertThat(back.lcAckedAt).isEqualTo(Lifecycle.NONE);
        assertThat(back.lcCompensationMs).isEqualTo(-1);
    }

    private static Result result(Put p) {
        List<Cell> cells = p.get(ReceiptTables.COUNTS, ReceiptTables.LIFECYCLE_COLUMN);
        return Result.create(cells);
    }
}
