package io.pushline.schema.gate;

import io.pushline.schema.CompactSerializer;
import io.pushline.schema.SerializerTypeInfo;
import io.pushline.schema.Varints;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The gate's per-device state in RocksDB, compact: one value per device, written on every PASS, so
 * its size is the gate's state size and its cost part of every decision. Times are stored as varint
 * distances from the last counted pass (mostly one to four bytes instead of eight), absent parts
 * cost nothing, and hashes take four bytes when they fit.
 *
 * <p>Wire form (forms 1 and 2 differ in strings only, see {@link CompactSerializer}): a flags byte;
 * the last counted pass (zig-zag varint); the local day as a distance from the last pass's UTC day
 * and its count; the windows as a count, then msgType name, distance of its start and its count
 * each; the dedupe memory as a count, then two hashes (8 or 4 bytes, see {@link #NARROW}) and the
 * distance of the pass time each; the number of passes (varint) when not 0. A field added later
 * takes a new flag, so values written before it read as they are (see {@link #PASSES_VERSION}).
 * State written by the generic POJO serializer (Pushline up to 0.1 of 2026-11-22) is migrated on
 * restore.
 */
public final class GateStateSerializer extends CompactSerializer<GateState> {
    private static final long serialVersionUID = 1L;
    public static final GateStateSerializer INSTANCE = new GateStateSerializer(CURRENT_FORM);

    private static final long DAY_MS = 86_400_000L;
    private static final int LAST = 1;
    private static final int DAY = 2;
    private static final int WINDOWS = 4;
    private static final int SEEN = 8;

    /** Every hash of the dedupe memory fits in an int: written as four bytes each. */
    private static final int NARROW = 16;

    private static final int PASSES = 32;

    /**
     * Snapshot version of the current wire form since GateState gained {@link GateState#passes}:
     * values written before it lack the flag and read as 0 passes, so state of version 2 is used as
     * it is (no migration pass over RocksDB), while a Pushline from before refuses version 3.
     */
    static final int PASSES_VERSION = 3;

    private GateStateSerializer(int form) {
        super(form);
    }

    static GateStateSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new GateStateSerializer(form);
    }

    @Override
    public GateState createInstance() {
        return new GateState();
    }

    @Override
    public GateState copy(GateState from) {
        GateState s = new GateState();
        s.lastCountedPass = from.lastCountedPass;
        s.day = from.day;
        s.dayCount = from.dayCount;
        s.windowTypes = from.windowTypes.clone();
        s.windowStarts = from.windowStarts.clone();
        s.windowCounts = from.windowCounts.clone();
        s.seen = from.seen.clone();
        s.passes = from.passes;
        return s;
    }

    @Override
    public void serialize(GateState s, DataOutputView out) throws IOException {
        boolean last = s.lastCountedPass != Long.MIN_VALUE;
        boolean day = s.day != Integer.MIN_VALUE || s.dayCount != 0;
        boolean narrow = narrow(s.seen);
        int flags =
                (last ? LAST : 0)
                        | (day ? DAY : 0)
                        | (s.windowTypes.length > 0 ? WINDOWS : 0)
                        | (s.seen.length > 0 ? SEEN : 0)
                        | (narrow ? NARROW : 0)
                        | (s.passes != 0 ? PASSES : 0);
        out.writeByte(flags);
        long base = last ? s.lastCountedPass : 0;
        if (last) {
            Varints.writeSigned(out, s.lastCountedPass);
        }
        if (day) {
            Varints.writeSigned(out, (long) s.day - Math.floorDiv(base, DAY_MS));
            Varints.writeUnsigned(out, s.dayCount);
        }
        if (s.windowTypes.length > 0) {
            Varints.writeUnsigned(out, s.windowTypes.length);
            for (int i = 0; i < s.windowTypes.length; i++) {
                writeString(s.windowTypes[i], out);
                Varints.writeSigned(out, base - s.windowStarts[i]);
                Varints.writeUnsigned(out, s.windowCounts[i]);
            }
        }
        if (s.seen.length > 0) {
            Varints.writeUnsigned(out, s.seen.length / 3);
            for (int i = 0; i < s.seen.length; i += 3) {
                if (narrow) {
                    out.writeInt((int) s.seen[i]);
                    out.writeInt((int) s.seen[i + 1]);
                } else {
                    out.writeLong(s.seen[i]);
                    out.writeLong(s.seen[i + 1]);
                }
                Varints.writeSigned(out, base - s.seen[i + 2]);
            }
        }
        if (s.passes != 0) {
            Varints.writeUnsigned(out, s.passes);
        }
    }

    private static boolean narrow(long[] seen) {
        for (int i = 0; i < seen.length; i += 3) {
            if (seen[i] != (int) seen[i] || seen[i + 1] != (int) seen[i + 1]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public GateState deserialize(DataInputView in) throws IOException {
        GateState s = new GateState();
        int flags = in.readUnsignedByte();
        if ((flags & LAST) != 0) {
            s.lastCountedPass = Varints.readSigned(in);
        }
        long base = (flags & LAST) != 0 ? s.lastCountedPass : 0;
        if ((flags & DAY) != 0) {
            s.day = (int) (Varints.readSigned(in) + Math.floorDiv(base, DAY_MS));
            s.dayCount = (int) Varints.readUnsigned(in);
        }
        if ((flags & WINDOWS) != 0) {
            int n = (int) Varints.readUnsigned(in);
            s.windowTypes = new String[n];
            s.windowStarts = new long[n];
            s.windowCounts = new int[n];
            for (int i = 0; i < n; i++) {
                s.windowTypes[i] = readName(in);
                s.windowStarts[i] = base - Varints.readSigned(in);
                s.windowCounts[i] = (int) Varints.readUnsigned(in);
            }
        }
        if ((flags & SEEN) != 0) {
            int n = (int) Varints.readUnsigned(in);
            boolean narrow = (flags & NARROW) != 0;
            s.seen = new long[n * 3];
            for (int i = 0; i < s.seen.length; i += 3) {
                s.seen[i] = narrow ? in.readInt() : in.readLong();
                s.seen[i + 1] = narrow ? in.readInt() : in.readLong();
                s.seen[i + 2] = base - Varints.readSigned(in);
            }
        }
        if ((flags & PASSES) != 0) {
            s.passes = (int) Varints.readUnsigned(in);
        }
        return s;
    }

    @Override
    public TypeSerializerSnapshot<GateState> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /**
     * The version is the wire form, 3 for the current form with {@code passes}; older forms and
     * generic POJO state are migrated.
     */
    public static final class Snapshot extends CompactSerializer.Snapshot<GateState> {
        public Snapshot() {
            super(GateStateSerializer::of);
        }

        @Override
        protected int versionOf(int form) {
            return form == CURRENT_FORM ? PASSES_VERSION : form;
        }

        @Override
        protected int formOf(int version) {
            return version == PASSES_VERSION ? CURRENT_FORM : super.formOf(version);
        }
    }

    /** Makes Flink use this serializer wherever a {@link GateState} is stored. */
    public static final class Factory extends TypeInfoFactory<GateState> {
        @Override
        public TypeInformation<GateState> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(GateState.class, INSTANCE);
        }
    }
}
