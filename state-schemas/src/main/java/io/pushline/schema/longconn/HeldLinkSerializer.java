package io.pushline.schema.longconn;

import io.pushline.schema.SerializerTypeInfo;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A reflection-free serializer for {@link HeldLink}: the deviceId, a byte (1: a state follows, 0:
 * none), then the state as {@link DeviceLinkSerializer} writes it in the same form.
 */
public final class HeldLinkSerializer extends LongconnWire<HeldLink> {
    private static final long serialVersionUID = 1L;
    public static final HeldLinkSerializer INSTANCE = new HeldLinkSerializer(CURRENT_FORM);

    private final DeviceLinkSerializer link;

    private HeldLinkSerializer(int form) {
        super(form);
        this.link = DeviceLinkSerializer.of(form);
    }

    static HeldLinkSerializer of(int form) {
        return form == CURRENT_FORM ? INSTANCE : new HeldLinkSerializer(form);
    }

    @Override
    public HeldLink createInstance() {
        return new HeldLink();
    }

    @Override
    public HeldLink copy(HeldLink from) {
        return new HeldLink(from.deviceId, from.link == null ? null : link.copy(from.link));
    }

    @Override
    public void serialize(HeldLink h, DataOutputView out) throws IOException {
        writeString(h.deviceId, out);
        out.writeByte(h.link == null ? 0 : 1);
        if (h.link != null) {
            link.serialize(h.link, out);
        }
    }

    @Override
    public HeldLink deserialize(DataInputView in) throws IOException {
        HeldLink h = new HeldLink();
        h.deviceId = readString(in);
        int present = in.readUnsignedByte();
        if (present == 1) {
            h.link = link.deserialize(in);
        } else if (present != 0) {
            throw new IOException("malformed held device: marker " + present);
        }
        return h;
    }

    @Override
    public TypeSerializerSnapshot<HeldLink> snapshotConfiguration() {
        return new Snapshot().writtenIn(form());
    }

    /** The version is the wire form. */
    public static final class Snapshot extends LongconnWire.Snapshot<HeldLink> {
        public Snapshot() {
            super(HeldLinkSerializer::of);
        }
    }

    /** Makes Flink use this serializer wherever a {@link HeldLink} is stored. */
    public static final class Factory extends TypeInfoFactory<HeldLink> {
        @Override
        public TypeInformation<HeldLink> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new SerializerTypeInfo<>(HeldLink.class, INSTANCE);
        }
    }
}
