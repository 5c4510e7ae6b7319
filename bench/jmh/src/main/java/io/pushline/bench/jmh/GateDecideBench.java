package io.pushline.bench.jmh;

import io.pushline.dispatch.gate.ExampleRules;
import io.pushline.dispatch.gate.GateEngine;
import io.pushline.dispatch.gate.Rules;
import io.pushline.dispatch.gate.RulesParser;
import io.pushline.schema.PushRequest;
import io.pushline.schema.gate.GateState;
import io.pushline.schema.registry.DeviceInfo;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@link GateEngine#decide} alone, as the gate operator calls it for each (push, device): the
 * contract's example rules, 10,000 devices with their own state, pushes of four msgTypes spread
 * over two days, so every rule has work (windows, daily counts, dedupe memory).
 *
 * <p>Event time only moves forward: each pass over the 65,536 pushes is the next two days (longer
 * than the 24 h dedupe window, so a msgId of the pass before is no duplicate). Before 2026-11-27
 * every pass started again at the first day while the states kept the passes before, so most
 * decisions were early exits (a duplicate, a cap already full, a push older than the last one).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GateDecideBench {
    private static final long T0 = 1_767_225_600_000L;
    private static final String[] TYPES = {"news", "album_update", "live_start", "promo"};
    private static final int DEVICES = 10_000;
    private static final int PUSHES = 1 << 16;
    private static final long PASS_MS = 2 * 86_400_000L;

    private Rules rules;
    private GateState[] states;
    private DeviceInfo[] devices;
    private PushRequest[] pushes;
    private int[] deviceOf;
    private long[] baseTs;
    private int next;
    private long shift;

    @Setup
    public void setUp() {
        rules = RulesParser.parse(ExampleRules.YAML);
        SplittableRandom random = new SplittableRandom(42);
        states = new GateState[DEVICES];
        devices = new DeviceInfo[DEVICES];
        for (int i = 0; i < DEVICES; i++) {
            states[i] = new GateState();
            DeviceInfo d = new DeviceInfo();
            d.deviceId = "dev-" + i;
            d.uid = "u" + i;
            d.vendor = "huawei";
            d.tz = i % 3 == 0 ? "Europe/Berlin" : null;
            devices[i] = d;
        }
        pushes = new PushRequest[PUSHES];
        baseTs = new long[PUSHES];
        deviceOf = new int[PUSHES];
        for (int i = 0; i < PUSHES; i++) {
            PushRequest p = new PushRequest();
            baseTs[i] = T0 + (long) i * PASS_MS / PUSHES;
            p.msgId = "m" + random.nextInt(PUSHES / 4);
            p.msgType = TYPES[random.nextInt(TYPES.length)];
            p.title = "title " + p.msgId;
            p.body = "body";
            pushes[i] = p;
            deviceOf[i] = random.nextInt(DEVICES);
        }
    }

    @Benchmark
    public GateEngine.Outcome decide() {
        int i = next;
        PushRequest p = pushes[i];
        p.ts = baseTs[i] + shift;
        next = (i + 1) & (PUSHES - 1);
        if (next == 0) {
            shift += PASS_MS; // the next pass is the next two days
        }
        int d = deviceOf[i];
        return GateEngine.decide(rules, states[d], p, devices[d], p.ts);
    }
}
