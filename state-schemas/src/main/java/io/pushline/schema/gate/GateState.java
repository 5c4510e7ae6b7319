package io.pushline.schema.gate;

import java.util.Arrays;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * Everything the gate remembers of one device, as one compact value (keyed state of the gate, keyed
 * by deviceId): the last counted pass, the local-day counter, one cap window per msgType and the
 * dedupe memory. Flat primitive arrays keep it small in RocksDB (no per-entry key overhead, no
 * boxing); {@link GateStateSerializer} stores it compactly and evolves it by snapshot versions.
 *
 * <p>Entries that no rule can still look at are dropped whenever the value is written (event-time
 * expiry, per field); state TTL only collects devices that went quiet.
 */
@TypeInfo(GateStateSerializer.Factory.class)
public class GateState {
    private static final String[] NO_TYPES = new String[0];
    private static final long[] NO_LONGS = new long[0];
    private static final int[] NO_INTS = new int[0];

    /** Event time of the last counted (non-whitelisted) pass; {@link Long#MIN_VALUE} for none. */
    public long lastCountedPass = Long.MIN_VALUE;

    /** Local epoch day that {@link #dayCount} belongs to. */
    public int day = Integer.MIN_VALUE;

    public int dayCount;

    /** Cap windows, one per msgType name: start (event time) and count, index-aligned. */
    public String[] windowTypes = NO_TYPES;

    public long[] windowStarts = NO_LONGS;
    public int[] windowCounts = NO_INTS;

    /** Dedupe memory: triples of (msgId hash, (title, body) hash, pass time). */
    public long[] seen = NO_LONGS;

    /**
     * Every PASS the gate has let through to the device, whitelisted ones included, since the
     * version that added this field (state restored from before starts at 0). What a strategist
     * asks of an audience ("how often have these people been pushed?"); no rule reads it.
     */
    public int passes;

    public GateState() {}

    public int windowIndex(String msgType) {
        for (int i = 0; i < windowTypes.length; i++) {
            if (windowTypes[i].equals(msgType)) {
                return i;
            }
        }
        return -1;
    }

    /** Sets the window of {@code msgType}, adding it when new. */
    public void putWindow(String msgType, long start, int count) {
        int i = windowIndex(msgType);
        if (i < 0) {
            i = windowTypes.length;
            windowTypes = Arrays.copyOf(windowTypes, i + 1);
            windowStarts = Arrays.copyOf(windowStarts, i + 1);
            windowCounts = Arrays.copyOf(windowCounts, i + 1);
            windowTypes[i] = msgType;
        }
        windowStarts[i] = start;
        windowCounts[i] = count;
    }

    public void removeWindow(int i) {
        windowTypes = remove(windowTypes, i);
        windowStarts = remove(windowStarts, i);
        windowCounts = remove(windowCounts, i);
    }

    public void addSeen(long msgIdHash, long copyHash, long ts) {
        int n = seen.length;
        seen = Arrays.copyOf(seen, n + 3);
        seen[n] = msgIdHash;
        seen[n + 1] = copyHash;
        seen[n + 2] = ts;
    }

    public boolean isEmpty() {
        return lastCountedPass == Long.MIN_VALUE
                && dayCount == 0
                && passes == 0
                && windowTypes.length == 0
                && seen.length == 0;
    }

    private static String[] remove(String[] a, int i) {
        String[] out = new String[a.length - 1];
        System.arraycopy(a, 0, out, 0, i);
        System.arraycopy(a, i + 1, out, i, a.length - i - 1);
        return out;
    }

    private static long[] remove(long[] a, int i) {
        long[] out = new long[a.length - 1];
        System.arraycopy(a, 0, out, 0, i);
        System.arraycopy(a, i + 1, out, i, a.length - i - 1);
        return out;
    }

    private static int[] remove(int[] a, int i) {
        int[] out = new int[a.length - 1];
        System.arraycopy(a, 0, out, 0, i);
        System.arraycopy(a, i + 1, out, i, a.length - i - 1);
        return out;
    }
}
