package io.pushline.audience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pushline.common.HBaseTables;
import io.pushline.local.LocalStackExtension;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.roaringbitmap.RoaringBitmap;

/** Segments in the real embedded HBase: chunked, versioned, replaced atomically. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SegmentStoreITCase {
    @RegisterExtension static final LocalStackExtension STACK = LocalStackExtension.hbaseOnly();

    static byte[] bytes(RoaringBitmap b) throws Exception {
        b.runOptimize();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        b.serialize(new DataOutputStream(out));
        return out.toByteArray();
    }

    static RoaringBitmap bitmap(byte[] bytes) throws Exception {
        RoaringBitmap b = new RoaringBitmap();
        b.deserialize(ByteBuffer.wrap(bytes));
        b.validate();
        return b;
    }

    @Test
    void aLargeSegmentIsChunkedAndReplacedWholeByANewVersion() throws Exception {
        Connection hbase = STACK.get().hbase().connection();
        HBaseTables.ensure(hbase, "segtest");
        Random rnd = new Random(3);
        RoaringBitmap big = new RoaringBitmap();
        for (int i = 0; i < 3_000_000; i++) {
            big.add(rnd.nextInt(60_000_000)); // sparse enough to need several 2 MB chunks
        }
        byte[] v1 = bytes(big);
        assertThat(v1.length).isGreaterThan(2 * (2 << 20));
        try (SegmentStore store = new SegmentStore(hbase, "segtest")) {
            assertThat(store.read("sports")).isNull();
            assertThat(store.write("sports", v1, big.getLongCardinality(), "package:sports.txt"))
                    .isEqualTo(1);
            assertThat(bitmap(store.read("sports"))).isEqualTo(big);

            RoaringBitmap small = RoaringBitmap.bitmapOf(1, 2, 3);
            assertThat(store.write("sports", bytes(small), 3, "package:sports-v2.txt"))
                    .isEqualTo(2);
            assertThat(bitmap(store.read("sports"))).isEqualTo(small);
            SegmentStore.Info info = store.info("sports");
            assertThat(info.version()).isEqualTo(2);
            assertThat(info.cardinality()).isEqualTo(3);
            assertThat(info.source()).isEqualTo("package:sports-v2.txt");

            store.write("news", bytes(RoaringBitmap.bitmapOf(7)), 1, "topic");
            assertThat(store.list())
                    .extracting(i -> i.name() + "@" + i.version())
                    .containsExactly("news@1", "sports@2");
        }
        // The first version's chunks are gone: one chunk row for sports, one for news, two metas.
        try (Table t = hbase.getTable(SegmentStore.table("segtest"));
                ResultScanner s = t.getScanner(new Scan())) {
            int rows = 0;
            while (s.next() != null) {
                rows++;
            }
            assertThat(rows).isEqualTo(4);
        }
    }

    @Test
    void corruptBytesAreRefusedWhenRead() throws Exception {
        Connection hbase = STACK.get().hbase().connection();
        HBaseTables.ensure(hbase, "segtest2");
        try (SegmentStore store = new SegmentStore(hbase, "segtest2")) {
            store.write("bad", new byte[] {1, 2, 3, 4, 5}, 0, "test");
            byte[] read = store.read("bad");
            assertThatThrownBy(() -> bitmap(read)).isInstanceOf(Exception.class);
        }
    }
}
