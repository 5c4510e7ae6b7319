package io.pushline.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Decision;
import io.pushline.schema.PushRequest;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Target;
import io.pushline.schema.dispatch.Delivery;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.registry.DeviceInfo;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GateFunctionTest {
    private KeyedOneInputStreamOperatorTestHarness<String, Delivery, Decision> h;

    @BeforeEach
    void setUp() throws Exception {
        h =
                ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                        new GateFunction(), d -> d.device.deviceId, Types.STRING);
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    @Test
    void passBecomesASendToTheDevicesVendor() throws Exception {
        h.processElement(Delivery.of(push(10, 7, "m1", 3), device(true)), 10);
        h.processWatermark(10);

        assertThat(h.extractOutputValues())
                .singleElement()
                .satisfies(
                        d -> {
                            assertThat(d.decision).isEqualTo("PASS");
                            assertThat(d.reason).isNull();
                            assertThat(d.vendor).isEqualTo("oppo");
                            assertThat(d.code).isZero();
                        });
        List<SendRecord> sends =
                h.getSideOutput(DispatchTags.SENDS).stream()
                        .map(StreamRecord::getValue)
                        .collect(Collectors.toList());
        assertThat(sends)
                .singleElement()
                .satisfies(
                        s -> {
                            assertThat(s.token).isEqualTo("tok");
                            assertThat(s.level).isEqualTo(3);
                            assertThat(s.vendor).isEqualTo("oppo");
                            assertThat(s.uid).isEqualTo("u1");
                        });
    }

    @Test
    void switchedOffDeviceIsDroppedAndNothingIsSent() throws Exception {
        h.processElement(Delivery.of(push(10, 7, "m1", null), device(false)), 10);
        h.processWatermark(10);

        assertThat(h.extractOutputValues())
                .singleElement()
                .satisfies(
                        d -> {
                            assertThat(d.decision).isEqualTo("DROP");
                            assertThat(d.reason).isEqualTo("push_disabled");
                            assertThat(d.vendor).isNull();
                            assertThat(d.code).isEqualTo(11);
                        });
        assertThat(h.getSideOutput(DispatchTags.SENDS)).isNull();
    }

    @Test
    void nothingIsDecidedBeforeTheWatermark() throws Exception {
        h.processElement(Delivery.of(push(10, 7, "m1", null), device(true)), 10);
        h.processWatermark(9);
        assertThat(h.extractOutputValues()).isEmpty();
        h.processWatermark(10);
        assertThat(h.extractOutputValues()).hasSize(1);
    }

    static DeviceInfo device(boolean enabled) {
        DeviceInfo d = new DeviceInfo();
        d.deviceId = "d1";
        d.uid = "u1";
        d.vendor = "oppo";
        d.token = "tok";
        d.pushEnabled = enabled;
        return d;
    }

    static PushRequest push(long ts, long seq, String msgId, Integer level) {
        PushRequest p = new PushRequest();
        p.ts = ts;
        p.seq = seq;
        p.msgId = msgId;
        p.msgType = "news";
        p.level = level;
        p.title = "t";
        p.body = "b";
        p.target = Target.ofDevices(List.of("d1"));
        return p;
    }
}
