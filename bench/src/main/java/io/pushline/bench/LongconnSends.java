package io.pushline.bench;

import io.pushline.schema.Fallback;
import io.pushline.schema.SendRecord;
import io.pushline.schema.longconn.LongconnEvent;
import io.pushline.schema.longconn.SendBytes;
import java.util.Comparator;
import java.util.PriorityQueue;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Message i: its send, and the reports that follow earlier sends and are due by its time. The
 * source's two subtasks each generate one half of the messages, so a message's time is its place
 * within its half, spaced so that event time moves at {@code rate} sends/s: both halves move
 * through the same event time together, as partitions of a topic do. A report comes in the stream
 * when it happens (as the gateway's acks reach their topic), not with its send, so nothing arrives
 * seconds ahead of the watermark; and a device's state waits for its ack as long as it would live.
 *
 * <p>Every device connected before its first send (a presence with its app version, just before
 * it), so the tracker, like the plain count, keeps a value for every device it has seen, as it does
 * live. What follows a send mirrors the simulated population (about 0.1 resends per ack): 94% are
 * acked 300 ms later; 2% after one to three retries; 3% go to a device that goes offline 5 s later
 * (a fallback at the first retry); 1% are never acked (retried until they give up).
 */
final class LongconnSends implements FlatMapFunction<Long, LongconnEvent> {
    private static final long serialVersionUID = 1L;
    private final int devices;
    private final long half;
    private final int rate;
    private transient PriorityQueue<LongconnEvent> reports;

    LongconnSends(int devices, long sends, int rate) {
        this.devices = devices;
        this.half = Math.max(1, sends / 2);
        this.rate = rate;
    }

    @Override
    public void flatMap(Long msg, Collector<LongconnEvent> out) {
        if (reports == null) {
            reports = new PriorityQueue<>(Comparator.comparingLong(e -> e.ts));
        }
        long place = msg % half;
        // the two halves' messages at one place go to different devices, each device's
        // first send is in the first places
        long nth = 2 * place + msg / half;
        String device = "d" + (nth * 7919 % devices);
        long sentAt = LongconnBench.T0 + place * 2_000 / rate;
        while (!reports.isEmpty() && reports.peek().ts <= sentAt) {
            out.collect(reports.poll());
        }
        if (nth < devices) {
            LongconnEvent connect = LongconnEvent.presence(sentAt - 1, device, true, "7.4.0");
            connect.seq = 2 * msg;
            out.collect(connect);
        }
        LongconnEvent e = LongconnEvent.sent(sentAt, "m" + msg, device);
        e.send = SendBytes.of(send(msg, device, sentAt));
        e.seq = 2 * msg + 1;
        out.collect(e);
        reports.add(report(msg, device, sentAt));
        if (place == half - 1) {
            while (!reports.isEmpty()) {
                out.collect(reports.poll());
            }
        }
    }

    private static LongconnEvent report(long msg, String device, long sentAt) {
        long fate = Long.remainderUnsigned(mix(msg), 100);
        if (fate < 94) {
            return LongconnEvent.ack(sentAt + 300, "m" + msg, device);
        }
        if (fate < 96) {
            return LongconnEvent.ack(sentAt + 300 + 10_000 * (fate - 93), "m" + msg, device);
        }
        if (fate < 99) {
            return LongconnEvent.presence(sentAt + 5_000, device, false, null);
        }
        return LongconnEvent.presence(sentAt + 300, device, true, "7.2.0");
    }

    static SendRecord send(long msg, String device, long ts) {
        SendRecord s = new SendRecord();
        s.msgId = "m" + msg;
        s.msgType = "live_start";
        s.level = 2;
        s.uid = "u" + device.substring(1);
        s.deviceId = device;
        s.vendor = "longconn";
        s.token = "conn-" + device;
        s.title = "Your host is live";
        s.body = "Tap to join the stream before it fills up";
        s.ts = ts;
        s.fallback = Fallback.of("huawei", "hw-token-0123456789abcdef0123456789abcdef");
        return s;
    }

    private static long mix(long x) {
        x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
        x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return x ^ (x >>> 33);
    }
}
