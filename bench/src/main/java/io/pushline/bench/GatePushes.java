package io.pushline.bench;

import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.DevicePush;
import io.pushline.schema.registry.DeviceInfo;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/**
 * The i-th push: a spread device, one of five msgTypes, an hour of event time (08:00 in Shanghai,
 * 01:00 in Berlin), eleven copies. The sequence source hands each of its two readers one half of
 * the numbers; event time interleaves the halves, so both readers move through the day together, as
 * partitions of a topic do.
 */
final class GatePushes extends RichMapFunction<Long, DevicePush> {
    private static final long serialVersionUID = 1L;
    private final int devices;
    private final long span;
    private final long half;
    private final boolean oneReader;

    GatePushes(int devices, long events) {
        this(devices, events, false);
    }

    /** {@code oneReader}: the j-th number read makes the j-th push in time order. */
    GatePushes(int devices, long events, boolean oneReader) {
        this.oneReader = oneReader;
        this.devices = devices;
        // All pushes within one hour, so intervals, caps and dedupe all have their say.
        this.span = 3_600_000L;
        this.half = (events + 1) / 2;
    }

    long ts(long i) {
        return GateBench.T0 + ((i % half) * 2 + i / half) * span / (2 * half);
    }

    /** The number of the j-th push in event-time order. */
    long inTimeOrder(long j) {
        return (j % 2) * half + j / 2;
    }

    static int device(long i, int devices) {
        return (int) Math.floorMod(i * 2_654_435_761L, (long) devices);
    }

    static int type(long i) {
        return (int) Math.floorMod(i * 31 + (i >>> 7), (long) GateBench.TYPES.length);
    }

    static String deviceId(int dev) {
        return "dev-" + dev;
    }

    @Override
    public void open(OpenContext ctx) {
        TaskWallClock.started();
    }

    @Override
    public DevicePush map(Long j) {
        return push(oneReader ? inTimeOrder(j) : j);
    }

    /** The i-th push. */
    DevicePush push(long i) {
        int dev = device(i, devices);
        DeviceInfo d = new DeviceInfo();
        d.deviceId = deviceId(dev);
        d.uid = "u-" + dev;
        d.vendor = "huawei";
        d.token = "t";
        d.tz = (dev & 3) == 0 ? "Europe/Berlin" : null;
        PushRequest p = new PushRequest();
        p.ts = ts(i);
        p.seq = i;
        p.msgId = "m-" + (i >>> 4);
        p.msgType = GateBench.TYPES[type(i)];
        p.title = "title " + (i % 11);
        p.body = "body";
        return DevicePush.of(p, d);
    }
}
