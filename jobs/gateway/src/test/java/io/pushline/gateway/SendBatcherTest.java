package io.pushline.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.SendRecord;
import io.pushline.schema.gateway.GatewayInput;
import io.pushline.schema.gateway.SendBatch;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class SendBatcherTest {
    static GatewayInput send(String msgId, int device) {
        SendRecord s = new SendRecord();
        s.msgId = msgId;
        s.deviceId = "d" + device;
        s.token = "t" + device;
        s.vendor = "huawei";
        return GatewayInput.of(s);
    }

    static OneInputStreamOperatorTestHarness<GatewayInput, SendBatch> harness(int max)
            throws Exception {
        var h = new OneInputStreamOperatorTestHarness<>(new SendBatcher("huawei", max, 5));
        h.open();
        return h;
    }

    static List<List<String>> batches(
            OneInputStreamOperatorTestHarness<GatewayInput, SendBatch> h) {
        List<List<String>> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord<?> r && r.getValue() instanceof SendBatch b) {
                List<String> ids = new ArrayList<>();
                for (SendRecord s : b.sends) {
                    ids.add(s.msgId + "/" + s.deviceId);
                }
                out.add(ids);
            }
        }
        return out;
    }

    @Test
    void sendsOfOneMessageShareACallUpToTheVendorsLimit() throws Exception {
        var h = harness(3);
        for (int i = 0; i < 4; i++) {
            h.processElement(new StreamRecord<>(send("m1", i)));
        }
        h.processElement(new StreamRecord<>(send("m2", 9)));
        // the first three left as soon as they filled a call; the rest wait for the linger
        assertThat(batches(h)).containsExactly(List.of("m1/d0", "m1/d1", "m1/d2"));
        h.setProcessingTime(5);
        assertThat(batches(h))
                .containsExactly(
                        List.of("m1/d0", "m1/d1", "m1/d2"), List.of("m1/d3"), List.of("m2/d9"));
    }

    @Test
    void nothingWaitsAcrossACheckpoint() throws Exception {
        var h = harness(1000);
        h.processElement(new StreamRecord<>(send("m1", 1)));
        h.processElement(new StreamRecord<>(send("m1", 2)));
        assertThat(batches(h)).isEmpty();
        h.prepareSnapshotPreBarrier(1);
        assertThat(batches(h)).containsExactly(List.of("m1/d1", "m1/d2"));
    }

    @Test
    void oneTokenVendorsSendAtOnceAndDeadLettersGoAside() throws Exception {
        var h = harness(1);
        h.processElement(new StreamRecord<>(send("m1", 1)));
        h.processElement(
                new StreamRecord<>(
                        GatewayInput.of(DeadLetter.of("push.vendor.fcm", "0-1", "bad", "x"))));
        assertThat(batches(h)).containsExactly(List.of("m1/d1"));
        assertThat(h.getSideOutput(SendBatcher.DEAD_LETTERS)).hasSize(1);
    }
}
