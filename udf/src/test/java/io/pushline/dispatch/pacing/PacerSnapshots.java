package io.pushline.dispatch.pacing;

import java.util.Map;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;

/**
 * Writes the pacer's state as this version stores it, for {@link PacerStateMigrationTest}: run once
 * per state layout and commit the file, e.g.
 *
 * <pre>java -cp ... io.pushline.dispatch.pacing.PacerSnapshots \
 *   udf/src/test/resources/state/pacer-v1-rocksdb.snapshot
 * </pre>
 *
 * <p>v1 (commit 21b3649): the waiting sends as the generic POJO serializer wrote them (a {@code
 * QueuedSend} holding a {@code SendRecord}). The backlog: 300 vivo sends at level 1 (all but the
 * first 100 with a deadline) produced at 0, of which 120 had left by 100 ms at 1,000 a second (the
 * bucket starts full).
 */
public final class PacerSnapshots {
    static final String VENDOR = "vivo";
    static final int SENDS = 300;
    static final long DEADLINE = 86_400_000L;

    private PacerSnapshots() {}

    public static void main(String[] args) throws Exception {
        try (PacerHarness p = new PacerHarness(Map.of(VENDOR, 1000.0))) {
            p.push(VENDOR, 1, 100);
            p.push(VENDOR, 1, SENDS - 100, DEADLINE);
            p.runUntil(100);
            OperatorSnapshotUtil.writeStateHandle(p.snapshot(), args[0]);
            System.out.println(p.sent.size() + " sent before the snapshot");
        }
    }
}
