package io.pushline.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.RocksDB;

class MemtableBloomTest {
    /** The deployed config names the factory, and the RocksDB backend loads it from there. */
    @Test
    void deployedConfigurationLoadsIt() {
        Path dir = Path.of("..", "deploy", "flink-conf");
        assertThat(Files.isRegularFile(dir.resolve("config.yaml"))).isTrue();
        Configuration conf = GlobalConfiguration.loadConfiguration(dir.toString());
        EmbeddedRocksDBStateBackend backend =
                new EmbeddedRocksDBStateBackend().configure(conf, getClass().getClassLoader());
        assertThat(backend.getRocksDBOptions()).isInstanceOf(MemtableBloom.class);
    }

    @Test
    void setsAWholeKeyFilterOnEachMemtable() throws Exception {
        RocksDB.loadLibrary();
        var handles = new ArrayList<AutoCloseable>();
        try (ColumnFamilyOptions opts = new ColumnFamilyOptions()) {
            ColumnFamilyOptions out = new MemtableBloom().createColumnOptions(opts, handles);
            assertThat(out.memtablePrefixBloomSizeRatio()).isEqualTo(MemtableBloom.SIZE_RATIO);
            assertThat(out.memtableWholeKeyFiltering()).isTrue();
        }
    }
}
