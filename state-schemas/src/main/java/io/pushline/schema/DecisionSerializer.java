package io.pushline.schema;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A reflection-free serializer for {@link Decision}: the gate emits one per (push, device), and the
 * generic POJO serializer's reflective copy between chained operators was a large part of the
 * gate's cost. Decisions travel between operators only (never in state). Wire form: a flags byte
 * (which strings are present; PASS/DROP/other), the strings, code, ts and seq.
 */
public final class DecisionSerializer extends CompactSerializer<Decision> {
    private static final long serialVersionUID = 1L;
    public static final DecisionSerializer INSTANCE = new DecisionSerializer(CURRENT_FORM);

    private static final int MSG_ID = 1;
    private static final int UID = 2;
    private static final int DEVICE = 4;
    private static final int VENDOR = 8;
    private static final int REASON = 16;
    private static final int MSG_TYPE = 32;
    private static final int PASS = 64;
    private static final int DROP = 128;

    private DecisionSerializer(int form) {
        super(form);
    }

    static DecisionSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new DecisionSerializer(form);
    }

    @Override
    public Decision createInstance() {
        return new Decision();
    }

    @Override
    public Decision copy(Decision from) {
        Decision d = new Decision();
        d.msgId = from.msgId;
        d.uid = from.uid;
        d.deviceId = from.deviceId;
        d.vendor = from.vendor;
        d.decision = from.decision;
        d.reason = from.reason;
        d.code = from.code;
        d.msgType = from.msgType;
        d.ts = from.ts;
        d.seq = from.seq;
        return d;
    }

    @Override
    public void serialize(Decision d, DataOutputView out) throws IOException {
        boolean pass = Decision.PASS.equals(d.decision);
        boolean drop = Decision.DROP.equals(d.decision);
        int flags =
                (d.msgId != null ? MSG_ID : 0)
                        | (d.uid != null ? UID : 0)
                        | (d.deviceId != null ? DEVICE : 0)
                        | (d.vendor != null ? VENDOR : 0)
                        | (d.reason != null ? REASON : 0)
                        | (d.msgType != null ? MSG_TYPE : 0)
                        | (pass ? PASS : 0)
                        | (drop ? DROP : 0);
        out.writeByte(flags);
        writeIf(d.msgId, out);
        writeIf(d.uid, out);
        writeIf(d.deviceId, out);
        writeIf(d.vendor, out);
        writeIf(d.reason, out);
        writeIf(d.msgType, out);
        if (!pass && !drop) {
            out.writeBoolean(d.decision != null);
            writeIf(d.decision, out);
        }
        out.writeInt(d.code);
        out.writeLong(d.ts);
        out.writeLong(d.seq);
    }

    private void writeIf(String s, DataOutputView out) throws IOException {
        if (s != null) {
            writeString(s, out);
        }
    }

    private String readIf(int flags, int bit, DataInputView in) throws IOException {
        return (flags & bit) != 0 ? readString(in) : null;
    }

    @Override
    public Decision deserialize(DataInputView in) throws IOException {
        Decision d = new Decision();
        int flags = in.readUnsignedByte();
        d.msgId = readIf(flags, MSG_ID, in);
        d.uid = readIf(flags, UID, in);
        d.deviceId = readIf(flags, DEVICE, in);
        d.vendor = readIf(flags, VENDOR, in);
        d.reason = readIf(flags, REASON, in);
        d.msgType = readIf(flags, MSG_TYPE, in);
        if ((flags & PASS) != 0) {
            d.decision = Decision.PASS;
        } else if ((flags & DROP) != 0) {
            d.decision = Decision.DROP;
        } else if (in.readBoolean()) {
            d.decision = readString(in);
        }
        d.code = in.readInt();
        d.ts = in.readLong();
        d.seq = in.readLong();
        return d;
    }

    @Override
    public TypeSerializerSnapshot<Decision> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /** The snapshot version is the wire form ({@link CompactSerializer}). */
    public static final class Snapshot extends CompactSerializer.Snapshot<Decision> {
        public Snapshot() {
            super(DecisionSerializer::of);
        }
    }

    /** Makes Flink use the serializer wherever a {@link Decision} travels. */
    public static final class Factory extends TypeInfoFactory<Decision> {
        @Override
        public TypeInformation<Decision> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(Decision.class, INSTANCE);
        }
    }
}
