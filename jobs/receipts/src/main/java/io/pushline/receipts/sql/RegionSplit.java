package io.pushline.receipts.sql;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** One HBase region's key range [start, end) of a table to scan; empty keys are open ends. */
final class RegionSplit implements SourceSplit {
    final byte[] start;
    final byte[] end;

    RegionSplit(byte[] start, byte[] end) {
        this.start = start;
        this.end = end;
    }

    @Override
    public String splitId() {
        return org.apache.hadoop.hbase.util.Bytes.toStringBinary(start);
    }

    static final class Serializer implements SimpleVersionedSerializer<RegionSplit> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(RegionSplit s) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            write(out, s);
            out.flush();
            return bytes.toByteArray();
        }

        @Override
        public RegionSplit deserialize(int version, byte[] serialized) throws IOException {
            return read(new DataInputStream(new ByteArrayInputStream(serialized)));
        }
    }

    static final class ListSerializer implements SimpleVersionedSerializer<List<RegionSplit>> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(List<RegionSplit> splits) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(splits.size());
            for (RegionSplit s : splits) {
                write(out, s);
            }
            out.flush();
            return bytes.toByteArray();
        }

        @Override
        public List<RegionSplit> deserialize(int version, byte[] serialized) throws IOException {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
            int n = in.readInt();
            List<RegionSplit> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(read(in));
            }
            return out;
        }
    }

    private static void write(DataOutputStream out, RegionSplit s) throws IOException {
        out.writeInt(s.start.length);
        out.write(s.start);
        out.writeInt(s.end.length);
        out.write(s.end);
    }

    private static RegionSplit read(DataInputStream in) throws IOException {
        byte[] start = new byte[in.readInt()];
        in.readFully(start);
        byte[] end = new byte[in.readInt()];
        in.readFully(end);
        return new RegionSplit(start, end);
    }
}
