package io.pushline.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.CampaignProgress;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.registry.DeviceInfo;
import io.pushline.schema.registry.RegistryChange;
import io.pushline.schema.registry.RegistryState;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every type kept in state or sent between operators must be a Flink POJO, so that fields can be
 * added without losing state, and must serialize without Kryo.
 */
class StateTypesTest {
    @ParameterizedTest
    @ValueSource(
            classes = {
                PushRequest.class,
                Target.class,
                DeviceEvent.class,
                DeadLetter.class,
                ParsedRecord.class,
                DeviceInfo.class,
                RegistryChange.class,
                AudienceChunk.class,
                CampaignProgress.class,
                io.pushline.schema.inbox.InboxOp.class
            })
    void isAPojoSerializedWithoutKryo(Class<?> type) throws Exception {
        TypeInformation<?> info = TypeInformation.of(type);
        assertThat(info).isInstanceOf(PojoTypeInfo.class);
        SerializerConfigImpl config = new SerializerConfigImpl();
        config.setGenericTypes(false);
        // Throws UnsupportedOperationException if any nested field would need Kryo.
        info.createSerializer(config);
    }

    @Test
    void bufferedRequestsRoundTrip() throws Exception {
        PushRequest p = new PushRequest();
        p.ts = 1;
        p.seq = 9;
        p.msgId = "m";
        p.msgType = "news";
        p.title = "t";
        p.body = "b";
        p.target = Target.ofUids(List.of("u1", "u2"));
        var descriptor = RegistryState.buffer("registry-buffer", RegistryInput.class);
        ExecutionConfig config = new ExecutionConfig();
        ((SerializerConfigImpl) config.getSerializerConfig()).setGenericTypes(false);
        descriptor.initializeSerializerUnlessSet(config);
        TypeSerializer<List<RegistryInput>> s = descriptor.getValueSerializer();
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(List.of(RegistryInput.of("d1", p)), out);
        List<RegistryInput> back = s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back.get(0).request).isEqualTo(p);
        assertThat(back.get(0).deviceId).isEqualTo("d1");
    }
}
