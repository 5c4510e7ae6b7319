package io.pushline.bench.jmh;

import io.pushline.schema.Utf8;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@link Utf8} against Flink's own {@code writeUTF}/{@code readUTF}, on a name as the state
 * serializers write them (an ASCII msgType) and on a title with CJK characters.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Utf8Bench {
    @Param({"album_update", "直播开始了：今晚八点不见不散"})
    public String text;

    private final DataOutputSerializer out = new DataOutputSerializer(256);
    private final DataInputDeserializer in = new DataInputDeserializer();
    private byte[] utf8;
    private byte[] modifiedUtf8;

    @Setup
    public void setUp() throws IOException {
        out.clear();
        Utf8.write(out, text);
        utf8 = out.getCopyOfBuffer();
        out.clear();
        out.writeUTF(text);
        modifiedUtf8 = out.getCopyOfBuffer();
    }

    @Benchmark
    public int write() throws IOException {
        out.clear();
        Utf8.write(out, text);
        return out.length();
    }

    @Benchmark
    public String read() throws IOException {
        in.setBuffer(utf8);
        return Utf8.read(in);
    }

    @Benchmark
    public int writeFlinkUtf() throws IOException {
        out.clear();
        out.writeUTF(text);
        return out.length();
    }

    @Benchmark
    public String readFlinkUtf() throws IOException {
        in.setBuffer(modifiedUtf8);
        return in.readUTF();
    }
}
