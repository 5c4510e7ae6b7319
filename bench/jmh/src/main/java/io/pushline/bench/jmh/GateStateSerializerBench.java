package io.pushline.bench.jmh;

import io.pushline.schema.gate.GateState;
import io.pushline.schema.gate.GateStateSerializer;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The gate state's serializer, as RocksDB state calls it on every decision: one device's value with
 * two cap windows and three remembered pushes written, and read back.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GateStateSerializerBench {
    private static final long T0 = 1_767_225_600_000L;

    private final GateStateSerializer serializer = GateStateSerializer.INSTANCE;
    private final DataOutputSerializer out = new DataOutputSerializer(256);
    private final DataInputDeserializer in = new DataInputDeserializer();
    private GateState state;
    private byte[] bytes;

    @Setup
    public void setUp() throws IOException {
        state = new GateState();
        state.lastCountedPass = T0 + 3_600_000L;
        state.day = 20_454;
        state.dayCount = 3;
        state.putWindow("news", T0, 2);
        state.putWindow("album_update", T0 + 60_000L, 1);
        for (int i = 0; i < 3; i++) {
            state.addSeen(0x9E3779B97F4A7C15L * (i + 1), 0xC2B2AE3D27D4EB4FL * (i + 1), T0 + i);
        }
        out.clear();
        serializer.serialize(state, out);
        bytes = out.getCopyOfBuffer();
    }

    @Benchmark
    public int write() throws IOException {
        out.clear();
        serializer.serialize(state, out);
        return out.length();
    }

    @Benchmark
    public GateState read() throws IOException {
        in.setBuffer(bytes);
        return serializer.deserialize(in);
    }
}
