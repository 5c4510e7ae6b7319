package io.pushline.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * Measures what keyed state takes on disk once RocksDB has compacted it: entries are written as
 * Flink's RocksDB backend lays out a ValueState with TTL (key group, key, namespace byte; TTL
 * timestamp before the value), flushed, fully compacted, and the SST files summed. Unlike a
 * checkpoint's size this leaves out versions that compaction has not yet dropped.
 */
final class StateOnDisk implements AutoCloseable {
    private final Path dir;
    private final Options options;
    private final WriteOptions write;
    private final RocksDB db;

    StateOnDisk(Path dir, CompressionType compression, boolean bloomFilter)
            throws RocksDBException {
        RocksDB.loadLibrary();
        this.dir = dir;
        this.options =
                new Options()
                        .setCreateIfMissing(true)
                        .setCompressionType(compression)
                        .setBottommostCompressionType(compression);
        if (bloomFilter) {
            // Flink's defaults for state.backend.rocksdb.use-bloom-filter: 10 bits a key, full
            // filters.
            options.setTableFormatConfig(
                    new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10, false)));
        }
        this.write = new WriteOptions().setDisableWAL(true);
        this.db = RocksDB.open(options, dir.toString());
    }

    /** Flink's compression setting ({@code state.backend.rocksdb.compression.per.level}). */
    static CompressionType compression(String perLevel) {
        if (perLevel == null || perLevel.isBlank()) {
            return CompressionType.SNAPPY_COMPRESSION;
        }
        String[] levels = perLevel.replace("[", "").replace("]", "").split("[;,]");
        return CompressionType.valueOf(levels[levels.length - 1].trim());
    }

    void put(int keyGroup, byte[] key, byte[] value, long ttlTimestamp) throws RocksDBException {
        byte[] k = new byte[2 + key.length + 1];
        k[0] = (byte) (keyGroup >>> 8);
        k[1] = (byte) keyGroup;
        System.arraycopy(key, 0, k, 2, key.length);
        byte[] v = new byte[8 + value.length];
        for (int i = 0; i < 8; i++) {
            v[i] = (byte) (ttlTimestamp >>> (56 - 8 * i));
        }
        System.arraycopy(value, 0, v, 8, value.length);
        db.put(write, k, v);
    }

    /** Flushes, compacts everything and returns the size of the SST files. */
    long compactedBytes() throws RocksDBException, IOException {
        try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
            db.flush(f);
        }
        db.compactRange();
        try (Stream<Path> files = Files.list(dir)) {
            long bytes = 0;
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().endsWith(".sst")) {
                    bytes += Files.size(p);
                }
            }
            return bytes;
        }
    }

    @Override
    public void close() {
        db.close();
        write.close();
        options.close();
    }
}
