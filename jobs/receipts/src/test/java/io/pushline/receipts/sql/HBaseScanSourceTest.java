package io.pushline.receipts.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class HBaseScanSourceTest {
    static final byte[] NONE = new byte[0];

    @Test
    void withoutAMsgIdEachSplitIsScannedWhole() {
        HBaseScanSource all = new HBaseScanSource("q", "ns", ReceiptTable.METRICS_MINUTE, null);
        Scan s = all.scanOf(new RegionSplit(NONE, Bytes.toBytes("m")));
        assertThat(s.getStartRow()).isEmpty();
        assertThat(s.getStopRow()).isEqualTo(Bytes.toBytes("m"));
    }

    @Test
    void aMsgIdNarrowsTheSplitToItsRowsOrSkipsIt() {
        HBaseScanSource one = new HBaseScanSource("q", "ns", ReceiptTable.LIFECYCLE, "c7");
        Scan whole = one.scanOf(new RegionSplit(NONE, NONE));
        assertThat(whole.getStartRow()).isEqualTo(new byte[] {'c', '7', 0});
        assertThat(whole.getStopRow()).isEqualTo(new byte[] {'c', '7', 1});
        // a region starting inside the campaign's rows: from the region's start
        byte[] inside = new byte[] {'c', '7', 0, 'd', '5'};
        Scan tail = one.scanOf(new RegionSplit(inside, NONE));
        assertThat(tail.getStartRow()).isEqualTo(inside);
        assertThat(tail.getStopRow()).isEqualTo(new byte[] {'c', '7', 1});
        // regions before and after the campaign's rows are not scanned
        assertThat(one.scanOf(new RegionSplit(NONE, Bytes.toBytes("b")))).isNull();
        assertThat(one.scanOf(new RegionSplit(Bytes.toBytes("d"), NONE))).isNull();
        // "c70" is another campaign: its rows sort after "c7\0..." and are not included
        assertThat(Bytes.compareTo(Bytes.toBytes("c70"), whole.getStopRow())).isPositive();
    }
}
