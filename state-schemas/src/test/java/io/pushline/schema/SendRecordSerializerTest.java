package io.pushline.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class SendRecordSerializerTest {
    private static final SendRecordSerializer S = SendRecordSerializer.INSTANCE;

    @Test
    void flinkUsesIt() {
        assertThat(TypeInformation.of(SendRecord.class).createSerializer(null)).isSameAs(S);
    }

    /** Every field set: a field added to SendRecord later fails here. */
    @Test
    void everyFieldRoundTrips() throws Exception {
        SendRecord s = new SendRecord();
        int i = 0;
        for (Field f : SendRecord.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            Class<?> t = f.getType();
            if (t == String.class) {
                f.set(s, "v-" + f.getName() + "-推送");
            } else if (t == long.class) {
                f.setLong(s, 1_000_000_000_000L + ++i);
            } else if (t == int.class) {
                f.setInt(s, -(++i));
            } else if (t == Long.class) {
                f.set(s, 2_000_000_000_000L + ++i);
            } else if (t == Integer.class) {
                f.set(s, ++i);
            } else if (t == Fallback.class) {
                f.set(s, Fallback.of("huawei", "t-" + f.getName()));
            } else {
                throw new AssertionError("no test value for SendRecord." + f);
            }
        }
        assertThat(roundTrip(s)).usingRecursiveComparison().isEqualTo(s);
        assertThat(S.copy(s)).usingRecursiveComparison().isEqualTo(s).isNotSameAs(s);
    }

    @Test
    void absentPartsStayAbsent() throws Exception {
        SendRecord s = new SendRecord();
        s.msgId = "m";
        s.deviceId = "d";
        s.vendor = "vivo";
        s.body = "";
        SendRecord back = roundTrip(s);
        assertThat(back).usingRecursiveComparison().isEqualTo(s);
        assertThat(back.deadline).isNull();
        assertThat(back.attempt).isNull();
        assertThat(back.fallback).isNull();
        assertThat(back.title).isNull();
        assertThat(back.body).isEmpty();
    }

    private static SendRecord roundTrip(SendRecord s) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        S.serialize(s, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        SendRecord back = S.deserialize(in);
        assertThat(in.available()).isZero();
        return back;
    }
}
