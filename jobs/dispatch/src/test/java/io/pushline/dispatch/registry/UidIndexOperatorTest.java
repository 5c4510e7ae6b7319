package io.pushline.dispatch.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.Decision;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.registry.DeviceInfo;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class UidIndexOperatorTest {
    private KeyedOneInputStreamOperatorTestHarness<String, UidKeyed, DevicePush> h;

    @BeforeEach
    void setUp() throws Exception {
        h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new UidIndexOperator(), k -> k.uid, Types.STRING);
        h.open();
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    @Test
    void resolvesAUidToEveryDeviceBoundAtTheRequestsTime() throws Exception {
        add(UidKeyed.change("u1", "d1", device("d1", "u1"), 10, 1));
        add(UidKeyed.change("u1", "d2", device("d2", "u1"), 11, 2));
        add(UidKeyed.request("u1", push(20, 3, "m1")));
        add(UidKeyed.change("u1", "d2", null, 30, 4)); // d2 leaves after m1
        add(UidKeyed.request("u1", push(40, 5, "m2")));
        h.processWatermark(50);

        assertThat(h.extractOutputValues())
                .extracting(d -> d.request.msgId + "/" + d.device.deviceId)
                .containsExactlyInAnyOrder("m1/d1", "m1/d2", "m2/d1");
    }

    @Test
    void aUidWithoutDevicesGetsOneNoDeviceDrop() throws Exception {
        add(UidKeyed.request("u9", push(20, 3, "m1")));
        h.processWatermark(20);

        assertThat(h.extractOutputValues()).isEmpty();
        List<Decision> drops =
                h.getSideOutput(DispatchTags.DECISIONS).stream()
                        .map(StreamRecord::getValue)
                        .collect(Collectors.toList());
        assertThat(drops)
                .singleElement()
                .satisfies(
                        d -> {
                            assertThat(d.uid).isEqualTo("u9");
                            assertThat(d.deviceId).isNull();
                            assertThat(d.vendor).isNull();
                            assertThat(d.reason).isEqualTo("no_device");
                            assertThat(d.code).isEqualTo(10);
                        });
    }

    private void add(UidKeyed k) throws Exception {
        h.processElement(k, k.ts);
    }

    static DeviceInfo device(String id, String uid) {
        DeviceInfo d = new DeviceInfo();
        d.deviceId = id;
        d.uid = uid;
        d.vendor = "huawei";
        d.token = "t";
        return d;
    }

    static PushRequest push(long ts, long seq, String msgId) {
        PushRequest p = new PushRequest();
        p.ts = ts;
        p.seq = seq;
        p.msgId = msgId;
        p.msgType = "news";
        p.title = "t";
        p.body = "b";
        p.target = Target.ofUids(List.of("u1"));
        return p;
    }
}
