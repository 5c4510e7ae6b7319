package io.pushline.schema.gate;

/**
 * A push waiting in the gate's queue whose record was moved to RocksDB (the queue was full): the
 * device it is keyed by, its place in the order, and its key in the device's spill map. Kept in
 * operator state across checkpoints.
 */
public class SpilledPush {
    public String deviceId;
    public long ts;
    public long seq;
    public long ref;

    public SpilledPush() {}

    public SpilledPush(String deviceId, long ts, long seq, long ref) {
        this.deviceId = deviceId;
        this.ts = ts;
        this.seq = seq;
        this.ref = ref;
    }
}
