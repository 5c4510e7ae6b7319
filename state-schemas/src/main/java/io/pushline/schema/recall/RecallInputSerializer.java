package io.pushline.schema.recall;

import io.pushline.schema.CompactSerializer;
import io.pushline.schema.SerializerTypeInfo;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * A compact, reflection-free serializer for {@link RecallInput}: millions of these are sorted by
 * uid every night, and the generic POJO serializer's reflective field access was most of recall's
 * cost. Wire form (version 1): uid, kind, tz, itemId as Flink strings (null-safe), ts, then tags
 * and weights as a count (-1 for null) and their values. Changing it means a new snapshot version.
 */
public final class RecallInputSerializer extends CompactSerializer<RecallInput> {
    private static final long serialVersionUID = 1L;
    public static final RecallInputSerializer INSTANCE = new RecallInputSerializer();

    private RecallInputSerializer() {
        // Batch records only, never in state: keeps StringValue's strings and its own snapshot.
        super(STRING_VALUE_FORM);
    }

    private static final int UID = 1;
    private static final int TZ = 2;
    private static final int ITEM = 4;
    private static final int TAGS = 8;
    private static final int WEIGHTS = 16;
    private static final int TS = 32;
    private static final int KIND_TEXT = 64;
    private static final int OTHER_KIND = 0;
    private static final String[] KINDS = {
        null, RecallInput.PROFILE, RecallInput.CONSUMED, RecallInput.PUSHED
    };

    @Override
    public RecallInput createInstance() {
        return new RecallInput();
    }

    @Override
    public RecallInput copy(RecallInput from) {
        RecallInput r = new RecallInput();
        r.uid = from.uid;
        r.kind = from.kind;
        r.tz = from.tz;
        r.itemId = from.itemId;
        r.ts = from.ts;
        r.tags = from.tags == null ? null : from.tags.clone();
        r.weights = from.weights == null ? null : from.weights.clone();
        return r;
    }

    @Override
    public void serialize(RecallInput r, DataOutputView out) throws IOException {
        int kind = kindCode(r.kind);
        int flags =
                (r.uid != null ? UID : 0)
                        | (r.tz != null ? TZ : 0)
                        | (r.itemId != null ? ITEM : 0)
                        | (r.tags != null ? TAGS : 0)
                        | (r.weights != null ? WEIGHTS : 0)
                        | (r.ts != 0 ? TS : 0)
                        | (kind == OTHER_KIND && r.kind != null ? KIND_TEXT : 0);
        out.writeByte(flags);
        out.writeByte(kind);
        if (r.uid != null) {
            StringValue.writeString(r.uid, out);
        }
        if ((flags & KIND_TEXT) != 0) {
            StringValue.writeString(r.kind, out);
        }
        if (r.tz != null) {
            StringValue.writeString(r.tz, out);
        }
        if (r.itemId != null) {
            StringValue.writeString(r.itemId, out);
        }
        if (r.ts != 0) {
            out.writeLong(r.ts);
        }
        if (r.tags != null) {
            out.writeInt(r.tags.length);
            for (String t : r.tags) {
                StringValue.writeString(t, out);
            }
        }
        if (r.weights != null) {
            out.writeInt(r.weights.length);
            for (double w : r.weights) {
                out.writeDouble(w);
            }
        }
    }

    @Override
    public RecallInput deserialize(DataInputView in) throws IOException {
        RecallInput r = new RecallInput();
        int flags = in.readUnsignedByte();
        int kind = in.readUnsignedByte();
        if ((flags & UID) != 0) {
            r.uid = StringValue.readString(in);
        }
        r.kind = (flags & KIND_TEXT) != 0 ? StringValue.readString(in) : KINDS[kind];
        if ((flags & TZ) != 0) {
            r.tz = StringValue.readString(in);
        }
        if ((flags & ITEM) != 0) {
            r.itemId = StringValue.readString(in);
        }
        if ((flags & TS) != 0) {
            r.ts = in.readLong();
        }
        if ((flags & TAGS) != 0) {
            r.tags = new String[in.readInt()];
            for (int i = 0; i < r.tags.length; i++) {
                r.tags[i] = StringValue.readString(in);
            }
        }
        if ((flags & WEIGHTS) != 0) {
            r.weights = new double[in.readInt()];
            for (int i = 0; i < r.weights.length; i++) {
                r.weights[i] = in.readDouble();
            }
        }
        return r;
    }

    private static int kindCode(String kind) {
        for (int i = 1; i < KINDS.length; i++) {
            if (KINDS[i].equals(kind)) {
                return i;
            }
        }
        return OTHER_KIND;
    }

    @Override
    public TypeSerializerSnapshot<RecallInput> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Restores {@link #INSTANCE}; version 1 is the wire form above. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<RecallInput> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** Makes Flink use the serializer wherever a {@link RecallInput} travels or is stored. */
    public static final class Factory extends TypeInfoFactory<RecallInput> {
        @Override
        public TypeInformation<RecallInput> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(RecallInput.class, INSTANCE);
        }
    }
}
