package io.pushline.udf;

import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.Triggerable;

/**
 * The event-time timers of the earlier per-key buffer (one per key and time, in the "user-timers"
 * service of a process function). A savepoint of that layout restores them; the records they were
 * for now wait in the {@link EventTimeQueue}, so they fire into nothing, once, and are gone.
 * Without a target, Flink fails on the first watermark after such a restore with heap timers.
 */
public final class LegacyTimers implements Triggerable<Object, VoidNamespace> {
    static final String NAME = "user-timers";
    private static final LegacyTimers IGNORE = new LegacyTimers();

    private LegacyTimers() {}

    /** From the operator's {@code open()}. */
    public interface Registrar {
        void register(String name, VoidNamespaceSerializer namespaces, LegacyTimers target);
    }

    /** Claims the timer service, so restored timers have a target. */
    public static void claim(Registrar operator) {
        operator.register(NAME, VoidNamespaceSerializer.INSTANCE, IGNORE);
    }

    @Override
    public void onEventTime(InternalTimer<Object, VoidNamespace> timer) {}

    @Override
    public void onProcessingTime(InternalTimer<Object, VoidNamespace> timer) {}
}
