package io.pushline.schema.longconn;

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
 * A reflection-free serializer for {@link LongconnAction}, which the ack tracker emits for every
 * tracked message and which is copied on its way to the next chained operator: the generic POJO
 * serializer's reflective copy was a twentieth of the tracker's time. Wire form: flags (delay, send
 * present; from a timer), time, order, attempt, then the strings and the optional parts.
 */
public final class LongconnActionSerializer extends LongconnWire<LongconnAction> {
    private static final long serialVersionUID = 1L;
    public static final LongconnActionSerializer INSTANCE =
            new LongconnActionSerializer(CURRENT_FORM);

    private static final int DELAY = 1;
    private static final int SEND = 2;
    private static final int FROM_TIMER = 4;

    private LongconnActionSerializer(int form) {
        super(form);
    }

    static LongconnActionSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new LongconnActionSerializer(form);
    }

    @Override
    public LongconnAction createInstance() {
        return new LongconnAction();
    }

    @Override
    public LongconnAction copy(LongconnAction from) {
        LongconnAction a =
                LongconnAction.of(
                        from.ts,
                        from.msgId,
                        from.deviceId,
                        from.action,
                        from.attempt,
                        from.delayMs);
        a.send = from.send;
        a.seq = from.seq;
        a.fromTimer = from.fromTimer;
        return a;
    }

    @Override
    public void serialize(LongconnAction a, DataOutputView out) throws IOException {
        out.writeByte(
                (a.delayMs != null ? DELAY : 0)
                        | (a.send != null ? SEND : 0)
                        | (a.fromTimer ? FROM_TIMER : 0));
        out.writeLong(a.ts);
        Varints.writeSigned(out, a.seq);
        Varints.writeSigned(out, a.attempt);
        writeString(a.msgId, out);
        writeString(a.deviceId, out);
        writeString(a.action, out);
        if (a.delayMs != null) {
            Varints.writeSigned(out, a.delayMs);
        }
        if (a.send != null) {
            writeSized(a.send, out);
        }
    }

    @Override
    public LongconnAction deserialize(DataInputView in) throws IOException {
        int flags = in.readUnsignedByte();
        LongconnAction a = new LongconnAction();
        a.fromTimer = (flags & FROM_TIMER) != 0;
        a.ts = in.readLong();
        a.seq = Varints.readSigned(in);
        a.attempt = (int) Varints.readSigned(in);
        a.msgId = readString(in);
        a.deviceId = readString(in);
        a.action = readName(in);
        if ((flags & DELAY) != 0) {
            a.delayMs = Varints.readSigned(in);
        }
        if ((flags & SEND) != 0) {
            a.send = readSized(in);
        }
        return a;
    }

    @Override
    public TypeSerializerSnapshot<LongconnAction> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /** The version is the wire form. */
    public static final class Snapshot extends LongconnWire.Snapshot<LongconnAction> {
        public Snapshot() {
            super(LongconnActionSerializer::of);
        }
    }

    /** Makes Flink use this serializer wherever a {@link LongconnAction} travels. */
    public static final class Factory extends TypeInfoFactory<LongconnAction> {
        @Override
        public TypeInformation<LongconnAction> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(LongconnAction.class, INSTANCE);
        }
    }
}
