package io.pushline.dispatch.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.DeviceEvent;
import io.pushline.schema.PushRequest;
import io.pushline.schema.Target;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.registry.RegistryChange;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RegistryOperatorTest {
    private KeyedOneInputStreamOperatorTestHarness<String, RegistryInput, DevicePush> h;

    @BeforeEach
    void setUp() throws Exception {
        h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new RegistryOperator(), k -> k.deviceId, Types.STRING);
        h.open();
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    @Test
    void decidesInEventTimeOrderNotArrivalOrder() throws Exception {
        // The push (t=20) arrives before the bind (t=10) that makes the device known.
        h.processElement(RegistryInput.of("d1", push(20, 2, "m1")), 20);
        h.processElement(RegistryInput.of(bind(10, 1, "d1", "u1")), 10);
        assertThat(h.extractOutputValues()).isEmpty();
        assertThat(((RegistryOperator) h.getOperator()).waiting()).isEqualTo(2);

        h.processWatermark(25);

        List<DevicePush> out = h.extractOutputValues();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).device.uid).isEqualTo("u1");
        assertThat(out.get(0).request.msgId).isEqualTo("m1");
        assertThat(side(DispatchTags.DECISIONS)).isEmpty();
        assertThat(((RegistryOperator) h.getOperator()).waiting()).isZero();
    }

    @Test
    void equalTimestampsFollowSequence() throws Exception {
        h.processElement(RegistryInput.of("d1", push(10, 2, "m1")), 10);
        h.processElement(RegistryInput.of(bind(10, 1, "d1", "u1")), 10);
        h.processWatermark(10);
        assertThat(h.extractOutputValues()).hasSize(1);
    }

    @Test
    void requestForUnboundDeviceIsNoDevice() throws Exception {
        h.processElement(RegistryInput.of(bind(10, 1, "d1", "u1")), 10);
        h.processElement(RegistryInput.of(DeviceEvent.unbind(20, "d1")), 20);
        h.processElement(RegistryInput.of("d1", push(30, 3, "m1")), 30);
        h.processWatermark(30);

        assertThat(h.extractOutputValues()).isEmpty();
        List<Decision> drops = side(DispatchTags.DECISIONS);
        assertThat(drops).hasSize(1);
        assertThat(drops.get(0).reason).isEqualTo("no_device");
        assertThat(drops.get(0).uid).isNull();
        assertThat(drops.get(0).deviceId).isEqualTo("d1");
    }

    @Test
    void rebindMovesTheDeviceBetweenUids() throws Exception {
        h.processElement(RegistryInput.of(bind(10, 1, "d1", "u1")), 10);
        h.processElement(RegistryInput.of(bind(20, 2, "d1", "u2")), 20);
        h.processWatermark(20);

        List<UidKeyed> changes = side(DispatchTags.UID_KEYED);
        assertThat(changes)
                .extracting(c -> c.uid + ":" + (c.device == null ? "-" : "+") + c.deviceId)
                .containsExactly("u1:+d1", "u1:-d1", "u2:+d1");
        List<RegistryChange> mirror = side(DispatchTags.REGISTRY_CHANGES);
        assertThat(mirror).hasSize(2);
        assertThat(mirror.get(1).previousUid).isEqualTo("u1");
        assertThat(mirror.get(1).device.uid).isEqualTo("u2");
    }

    @Test
    void switchUpdatesABoundDeviceAndIsIgnoredForAnUnboundOne() throws Exception {
        h.processElement(RegistryInput.of(DeviceEvent.switchTo(5, "d1", false)), 5);
        h.processElement(RegistryInput.of(bind(10, 1, "d1", "u1")), 10);
        h.processElement(RegistryInput.of(DeviceEvent.switchTo(20, "d1", false)), 20);
        h.processElement(RegistryInput.of("d1", push(30, 3, "m1")), 30);
        h.processWatermark(30);

        assertThat(h.extractOutputValues())
                .singleElement()
                .satisfies(d -> assertThat(d.device.pushEnabled).isFalse());
        // The switch before the bind changed nothing: only bind and the later switch are mirrored.
        assertThat(side(DispatchTags.REGISTRY_CHANGES)).hasSize(2);
    }

    /** An unbind naming a token holds only for that binding: a forged or stale one is ignored. */
    @Test
    void anUnbindForAnotherTokenLeavesTheDeviceBound() throws Exception {
        h.processElement(RegistryInput.of(bind(10, 1, "d1", "u1")), 10);
        h.processElement(RegistryInput.of(DeviceEvent.unbind(20, "d1", "forged")), 20);
        h.processElement(RegistryInput.of("d1", push(30, 3, "m1")), 30);
        h.processElement(RegistryInput.of(DeviceEvent.unbind(40, "d1", "tok-d1")), 40);
        h.processElement(RegistryInput.of("d1", push(50, 5, "m2")), 50);
        h.processWatermark(50);

        assertThat(h.extractOutputValues()).extracting(d -> d.request.msgId).containsExactly("m1");
        assertThat(side(DispatchTags.DECISIONS))
                .extracting(d -> d.msgId + " " + d.reason)
                .containsExactly("m2 no_device");
    }

    /** A record that makes the registry throw is a dead letter; the records after it go on. */
    @Test
    void aRecordThatThrowsIsADeadLetterWithoutItsToken() throws Exception {
        DeviceEvent odd = bind(10, 1, "d1", "u1");
        odd.type = "rebind"; // the parser refuses this type; the registry must survive it anyway
        h.processElement(RegistryInput.of(odd), 10);
        h.processElement(RegistryInput.of(bind(11, 2, "d1", "u1")), 11);
        h.processElement(RegistryInput.of("d1", push(12, 3, "m1")), 12);
        h.processWatermark(12);

        assertThat(h.extractOutputValues()).extracting(d -> d.request.msgId).containsExactly("m1");
        List<DeadLetter> dead = side(DispatchTags.DEAD_LETTERS);
        assertThat(dead)
                .singleElement()
                .satisfies(
                        d -> {
                            assertThat(d.source).isEqualTo("registry-buffer");
                            assertThat(d.position).isEqualTo("deviceId d1");
                            assertThat(d.reason)
                                    .contains("IllegalStateException")
                                    .contains("rebind");
                            assertThat(d.raw)
                                    .contains("\"token\":\"***\"")
                                    .doesNotContain("tok-d1");
                        });
    }

    @Test
    void bufferIsEmptyOnceTheWatermarkPassed() throws Exception {
        h.processElement(RegistryInput.of(bind(10, 1, "d1", "u1")), 10);
        h.processElement(RegistryInput.of(bind(10, 1, "d2", "u1")), 10);
        h.processWatermark(10);
        // One registry entry per device; the buffer keeps nothing.
        assertThat(h.numKeyedStateEntries()).isEqualTo(2);
    }

    private <T> List<T> side(OutputTag<T> tag) {
        var q = h.getSideOutput(tag);
        return q == null
                ? List.of()
                : q.stream().map(StreamRecord::getValue).collect(Collectors.toList());
    }

    static DeviceEvent bind(long ts, long seq, String device, String uid) {
        DeviceEvent e = DeviceEvent.bind(ts, device, uid, "fcm", "tok-" + device, null);
        e.seq = seq;
        return e;
    }

    static PushRequest push(long ts, long seq, String msgId) {
        PushRequest p = new PushRequest();
        p.ts = ts;
        p.seq = seq;
        p.msgId = msgId;
        p.msgType = "news";
        p.title = "t";
        p.body = "b";
        p.target = Target.ofDevices(List.of("d1"));
        return p;
    }
}
