package io.pushline.dispatch.gate;

import io.pushline.schema.Decision;
import io.pushline.schema.PushRequest;
import io.pushline.schema.SendRecord;
import io.pushline.schema.Target;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.registry.DeviceInfo;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;

/** The gate operator in Flink's keyed broadcast test harness, one push at a time. */
final class GateHarness implements AutoCloseable {
    final KeyedTwoInputStreamOperatorTestHarness<String, DevicePush, String, Decision> h;
    private long seq;
    private int seen;
    private long watermark = Long.MIN_VALUE;

    GateHarness(String rulesYaml) throws Exception {
        h = harness(new GateOperator(rulesYaml, Duration.ofDays(8)));
        h.open();
    }

    /** The operator in a keyed two-input harness: pushes keyed by device, rules unkeyed. */
    static KeyedTwoInputStreamOperatorTestHarness<String, DevicePush, String, Decision> harness(
            GateOperator gate) throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                gate, d -> d.device.deviceId, null, Types.STRING, 1, 1, 0);
    }

    static DeviceInfo device(String id, String uid, String tz) {
        DeviceInfo d = new DeviceInfo();
        d.deviceId = id;
        d.uid = uid;
        d.vendor = "huawei";
        d.token = "tok-" + id;
        d.tz = tz;
        return d;
    }

    static long at(String localDateTime, String zone) {
        return LocalDateTime.parse(localDateTime)
                .atZone(ZoneId.of(zone))
                .toInstant()
                .toEpochMilli();
    }

    static PushRequest push(long t, String msgId, String msgType, Integer level, String title) {
        PushRequest p = new PushRequest();
        p.ts = t;
        p.msgId = msgId;
        p.msgType = msgType;
        p.level = level;
        p.title = title;
        p.body = "body of " + title;
        p.target = Target.ofDevices(List.of());
        return p;
    }

    /** Decides one push for one device at its time; returns the reason, or "PASS". */
    String decide(DeviceInfo device, PushRequest p) throws Exception {
        p.seq = ++seq;
        h.processElement1(new StreamRecord<>(DevicePush.of(p, device), p.ts));
        // A push at or before the watermark is decided at the next watermark.
        watermark = Math.max(p.ts, watermark + 1);
        h.processBothWatermarks(new Watermark(watermark));
        List<Decision> out = h.extractOutputValues();
        if (out.size() != seen + 1) {
            throw new AssertionError("expected one new decision, got " + (out.size() - seen));
        }
        Decision d = out.get(seen++);
        return d.isPass() ? "PASS" : d.reason;
    }

    String decide(DeviceInfo device, long t, String msgId, String msgType) throws Exception {
        return decide(device, push(t, msgId, msgType, null, "title " + msgId));
    }

    void newRules(String yaml) throws Exception {
        h.processElement2(new StreamRecord<>(yaml, 0));
    }

    List<SendRecord> sends() {
        var q = h.getSideOutput(DispatchTags.SENDS);
        return q == null
                ? List.of()
                : q.stream().map(StreamRecord::getValue).collect(Collectors.toList());
    }

    @Override
    public void close() throws Exception {
        h.close();
    }
}
