package io.pushline.dispatch;

import io.pushline.dispatch.gate.GateEngine;
import io.pushline.dispatch.gate.Rules;
import io.pushline.dispatch.gate.RulesParser;
import io.pushline.schema.DropReason;
import io.pushline.schema.PushRequest;
import io.pushline.schema.gate.GateState;
import io.pushline.schema.gate.GateStateDescriptors;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.schema.registry.RegistryState;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.fs.Path;
import org.apache.flink.state.api.OperatorIdentifier;
import org.apache.flink.state.api.SavepointReader;
import org.apache.flink.state.api.functions.KeyedStateReaderFunction;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/**
 * What the gate would do now with a campaign of one msgType to a set of uids, from the dispatch
 * job's state in a checkpoint or savepoint (the State Processor API): each member's devices as the
 * uid index holds them (as a campaign resolves them), each device's gate state, and {@link
 * GateEngine#decide} at {@code now} on a copy. Nothing is written anywhere.
 *
 * <p>The reader goes through every key of the two operators' state (a checkpoint has no index by
 * key), so it takes about as long as a restore of those operators: seconds for a million devices.
 */
public final class GateDryRun {
    /** The answer, per vendor and in all. */
    public static final class Result {
        public long members;
        public long withDevice;
        public long devices;
        public long pass;
        public long dropped;
        public final Map<String, Long> drops = new TreeMap<>();
        public final Map<String, long[]> vendorCounts = new TreeMap<>();
        public final Map<String, Map<String, Long>> vendorDrops = new TreeMap<>();
        public Path checkpoint;
        public long takenAt;
    }

    private GateDryRun() {}

    /**
     * The newest complete checkpoint or savepoint under {@code dir} (local or {@code s3://}): a
     * folder with {@code _metadata}, at most two folders down (root, job, chk-N); null when there
     * is none.
     */
    public static Path newest(Path dir) throws IOException {
        return NewestCheckpoint.under(dir);
    }

    /**
     * @param checkpoint a folder with {@code _metadata}
     * @param rules the rules in force (the document's text)
     * @param stateTtl the job's {@code dispatch.gate.state-ttl}: the state is read with the same
     *     descriptor
     */
    public static Result run(
            StreamExecutionEnvironment env,
            Path checkpoint,
            Set<String> members,
            String msgType,
            String rules,
            Duration stateTtl,
            long now)
            throws Exception {
        Rules parsed = RulesParser.parse(rules);
        SavepointReader reader =
                SavepointReader.read(env, checkpoint.toString(), new EmbeddedRocksDBStateBackend());
        Map<String, DeviceInfo> devices = new HashMap<>();
        Set<String> withDevice = new HashSet<>();
        DataStream<DeviceInfo> bound =
                keyed(reader, checkpoint, "uid-index", new UidDevices(members));
        for (DeviceInfo d : collect(env, bound, "dry run: uid index")) {
            devices.put(d.deviceId, d);
            withDevice.add(d.uid);
        }
        Map<String, GateState> states = new HashMap<>();
        DataStream<Keyed> gate =
                keyed(
                        reader,
                        checkpoint,
                        "gate",
                        new GateStates(new HashSet<>(devices.keySet()), stateTtl));
        for (Keyed k : collect(env, gate, "dry run: gate state")) {
            states.put(k.deviceId, k.state);
        }
        Result r = new Result();
        r.members = members.size();
        r.withDevice = withDevice.size();
        r.devices = devices.size();
        r.checkpoint = NewestCheckpoint.normalized(checkpoint);
        r.takenAt = NewestCheckpoint.takenAt(checkpoint);
        PushRequest p = new PushRequest();
        p.msgId = "dry-run";
        p.msgType = msgType;
        for (DeviceInfo d : devices.values()) {
            GateState s = states.get(d.deviceId);
            GateEngine.Outcome o =
                    GateEngine.decide(parsed, s == null ? new GateState() : s, p, d, now);
            long[] c = r.vendorCounts.computeIfAbsent(d.vendor, v -> new long[3]);
            c[0]++;
            if (o.pass()) {
                r.pass++;
                c[1]++;
            } else {
                String reason = o.reason().wireName();
                r.dropped++;
                c[2]++;
                r.drops.merge(reason, 1L, Long::sum);
                r.vendorDrops
                        .computeIfAbsent(d.vendor, v -> new TreeMap<>())
                        .merge(reason, 1L, Long::sum);
            }
        }
        if (r.members > r.withDevice) {
            r.drops.merge(DropReason.NO_DEVICE.wireName(), r.members - r.withDevice, Long::sum);
        }
        return r;
    }

    /**
     * The keyed state of operator {@code uid}.
     *
     * @throws IllegalArgumentException when the checkpoint has none: not the dispatch job's
     */
    public static <T> DataStream<T> keyed(
            SavepointReader reader,
            Path checkpoint,
            String uid,
            KeyedStateReaderFunction<String, T> function)
            throws IOException {
        try {
            return reader.readKeyedState(OperatorIdentifier.forUid(uid), function);
        } catch (IOException e) {
            if (String.valueOf(e.getMessage()).contains("does not contain state")) {
                throw new IllegalArgumentException(
                        checkpoint
                                + " holds no state of the dispatch job's operator '"
                                + uid
                                + "': is it a checkpoint of the dispatch job?",
                        e);
            }
            throw e;
        }
    }

    /** Results of the local jobs, by run: they run in this JVM (a local environment). */
    private static final Map<String, Queue<Object>> RESULTS = new ConcurrentHashMap<>();

    /**
     * Runs the stream to its end and returns what it emitted. Not executeAndCollect: a local
     * environment shuts its mini cluster down as the job ends, and the collecting client then lost
     * the last results ("Failed to get job status ... Some data might be lost").
     */
    @SuppressWarnings("unchecked")
    private static <T> List<T> collect(
            StreamExecutionEnvironment env, DataStream<T> stream, String name) throws Exception {
        // The records go to the queue as they are: no copy between the reader and the sink.
        env.getConfig().enableObjectReuse();
        String run = UUID.randomUUID().toString();
        Queue<Object> out = new ConcurrentLinkedQueue<>();
        RESULTS.put(run, out);
        try {
            stream.sinkTo(new Into<>(run)).name("collect");
            env.execute(name);
            List<T> list = new ArrayList<>(out.size());
            for (Object o : out) {
                list.add((T) o);
            }
            return list;
        } finally {
            RESULTS.remove(run);
        }
    }

    /** Hands records to {@link #RESULTS} (same JVM). */
    private static final class Into<T> implements Sink<T> {
        private static final long serialVersionUID = 1L;
        private final String run;

        Into(String run) {
            this.run = run;
        }

        @Override
        public SinkWriter<T> createWriter(WriterInitContext context) {
            Queue<Object> out = RESULTS.get(run);
            return new SinkWriter<>() {
                @Override
                public void write(T element, Context ctx) {
                    // Flink 2.2's InputFormatSource emits what the state reader's nextRecord
                    // returns, and that is null for every key whose readKey emitted nothing
                    // (every key not asked for).
                    if (element != null) {
                        out.add(element);
                    }
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    /** A device's gate state, for the collecting client. */
    public static final class Keyed {
        public String deviceId;
        public GateState state;

        public Keyed() {}
    }

    /** The devices of the members, from the uid index (keyed by uid). */
    private static final class UidDevices extends KeyedStateReaderFunction<String, DeviceInfo> {
        private static final long serialVersionUID = 1L;
        private final Set<String> members;
        private transient MapState<String, DeviceInfo> devices;

        UidDevices(Set<String> members) {
            this.members = members;
        }

        @Override
        public void open(OpenContext ctx) {
            devices = getRuntimeContext().getMapState(RegistryState.uidDevices());
        }

        @Override
        public void readKey(String uid, Context ctx, Collector<DeviceInfo> out) throws Exception {
            if (!members.contains(uid)) {
                return;
            }
            for (DeviceInfo d : devices.values()) {
                if (d != null && d.vendor != null) {
                    out.collect(d);
                }
            }
        }
    }

    /** The gate state of the given devices (keyed by deviceId). */
    private static final class GateStates extends KeyedStateReaderFunction<String, Keyed> {
        private static final long serialVersionUID = 1L;
        private final Set<String> wanted;
        private final Duration ttl;
        private transient ValueState<GateState> state;

        GateStates(Set<String> wanted, Duration ttl) {
            this.wanted = wanted;
            this.ttl = ttl;
        }

        @Override
        public void open(OpenContext ctx) {
            state = getRuntimeContext().getState(GateStateDescriptors.device(ttl));
        }

        @Override
        public void readKey(String deviceId, Context ctx, Collector<Keyed> out) throws Exception {
            if (!wanted.contains(deviceId)) {
                return;
            }
            GateState s = state.value();
            if (s != null) {
                Keyed k = new Keyed();
                k.deviceId = deviceId;
                k.state = s;
                out.collect(k);
            }
        }
    }

    /** The per-vendor rows of a result, for printing. */
    public static List<Map<String, Object>> vendors(Result r) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map.Entry<String, long[]> e : r.vendorCounts.entrySet()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("vendor", e.getKey());
            m.put("devices", e.getValue()[0]);
            m.put("pass", e.getValue()[1]);
            m.put("dropped", e.getValue()[2]);
            m.put("drops", r.vendorDrops.getOrDefault(e.getKey(), Map.of()));
            out.add(m);
        }
        return out;
    }
}
