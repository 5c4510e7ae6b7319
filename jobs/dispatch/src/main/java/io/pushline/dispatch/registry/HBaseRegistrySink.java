package io.pushline.dispatch.registry;

import io.pushline.audience.IdDictionary;
import io.pushline.common.HBaseTables;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.schema.registry.RegistryChange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Mirrors the device registry into HBase ({@link HBaseTables}) so other services can read it, and
 * gives every uid that binds a device its dictionary id on first sight ({@link IdDictionary}), so
 * audience expressions know every user (the universe of NOT). Mutations are buffered and flushed at
 * every checkpoint; they are idempotent, so a replay after a failure rewrites the same rows
 * (at-least-once delivery, exactly-once result), and a uid keeps the id it got first.
 */
public class HBaseRegistrySink implements Sink<RegistryChange> {
    private static final long serialVersionUID = 1L;

    private final String quorum;
    private final String namespace;

    public HBaseRegistrySink(String quorum, String namespace) {
        this.quorum = quorum;
        this.namespace = namespace;
    }

    @Override
    public SinkWriter<RegistryChange> createWriter(WriterInitContext context) throws IOException {
        Counter written = context.metricGroup().addGroup("hbase", "registry").counter("mutations");
        return new Writer(quorum, namespace, written);
    }

    static final class Writer implements SinkWriter<RegistryChange> {
        /** Uids collected before a dictionary round trip, at the latest at each checkpoint. */
        static final int UID_BATCH = 10_000;

        private final Connection connection;
        private final BufferedMutator devices;
        private final BufferedMutator byUid;
        private final IdDictionary dictionary;
        private final Set<String> uids = new LinkedHashSet<>();
        private final Counter written;

        Writer(String quorum, String namespace, Counter written) throws IOException {
            this.connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
            this.devices = connection.getBufferedMutator(HBaseTables.devices(namespace));
            this.byUid = connection.getBufferedMutator(HBaseTables.devicesByUid(namespace));
            this.dictionary = new IdDictionary(connection, namespace, 100_000);
            this.written = written;
        }

        @Override
        public void write(RegistryChange c, Context context) throws IOException {
            byte[] row = Bytes.toBytes(c.deviceId);
            DeviceInfo d = c.device;
            // Cells carry the event time: a replay rewrites the same cells, and an unbind followed
            // by a re-bind within one flush is not hidden by the delete marker.
            long ts = Math.max(0, c.ts);
            List<Mutation> index = new ArrayList<>(2);
            if (c.previousUid != null && (d == null || !c.previousUid.equals(d.uid))) {
                index.add(new Delete(HBaseTables.uidIndexRow(c.previousUid, c.deviceId), ts));
            }
            if (d == null) {
                devices.mutate(new Delete(row, ts));
            } else {
                devices.mutate(devicePut(row, d, ts));
                index.add(
                        new Put(HBaseTables.uidIndexRow(d.uid, d.deviceId), ts)
                                .addColumn(
                                        HBaseTables.FAMILY,
                                        Bytes.toBytes("vendor"),
                                        Bytes.toBytes(d.vendor)));
            }
            byUid.mutate(index);
            written.inc(1 + index.size());
            // A device that stays with its uid (token refresh, switch) brings no new uid: only
            // fresh binds and moves cost a dictionary lookup.
            boolean newToDevice = d != null && d.uid != null && !d.uid.equals(c.previousUid);
            if (newToDevice && uids.add(d.uid) && uids.size() >= UID_BATCH) {
                assignIds();
            }
        }

        private void assignIds() throws IOException {
            if (!uids.isEmpty()) {
                dictionary.assignAll(new ArrayList<>(uids));
                uids.clear();
            }
        }

        static Put devicePut(byte[] row, DeviceInfo d, long ts) {
            Put p = new Put(row, ts);
            add(p, "uid", d.uid);
            add(p, "vendor", d.vendor);
            add(p, "token", d.token);
            add(p, "tz", d.tz == null ? "" : d.tz);
            add(p, "enabled", String.valueOf(d.pushEnabled));
            add(p, "boundTs", String.valueOf(d.boundTs));
            add(p, "updatedTs", String.valueOf(d.updatedTs));
            // empty when none, so that a re-bind without one clears an earlier one
            add(p, "fallbackVendor", d.fallback == null ? "" : d.fallback.vendor);
            add(p, "fallbackToken", d.fallback == null ? "" : d.fallback.token);
            return p;
        }

        private static void add(Put p, String column, String value) {
            p.addColumn(HBaseTables.FAMILY, Bytes.toBytes(column), Bytes.toBytes(value));
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            devices.flush();
            byUid.flush();
            assignIds();
        }

        @Override
        public void close() throws Exception {
            try {
                devices.close();
                byUid.close();
                dictionary.close();
            } finally {
                connection.close();
            }
        }
    }
}
