package io.pushline.schema;

import java.io.IOException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last line of defence of every operator that handles outside data: when handling one record
 * throws anyway (a bug, a limit nobody thought of, an {@code Error} such as a stack overflow), the
 * record becomes a dead letter and the job goes on, where rethrowing would restart the job onto the
 * same record forever.
 *
 * <p>Not everything is the record's fault. {@link #rethrowIfNotTheRecords} lets through what a job
 * must not survive or should retry from a checkpoint: the JVM failing ({@link VirtualMachineError}:
 * out of memory, internal error; a {@link StackOverflowError} is one of these too, but it is also
 * what deep input causes, so it is the record's), an interrupt (the task is being cancelled) and
 * the state backend or a file failing (RocksDB, {@link IOException} other than a parser's).
 */
public final class RecordFailure {
    private static final Logger LOG = LoggerFactory.getLogger(RecordFailure.class);
    private static final int MAX_MESSAGE = 300;

    private RecordFailure() {}

    /**
     * The dead letter for a record whose handling at {@code stage} threw {@code t}, after checking
     * that {@code t} is the record's fault (otherwise rethrown). {@code raw} describes the record
     * (masked and bounded like every dead letter; a failure to describe it is tolerated). Logged
     * without the record, at the 1st, 2nd, 4th, 8th ... failure of the stage ({@code count}).
     */
    public static DeadLetter deadLetter(
            String stage, String position, Supplier<String> raw, Throwable t, long count) {
        rethrowIfNotTheRecords(t);
        if (Long.bitCount(count) == 1) {
            LOG.warn(
                    "{}: handling a record threw {} (failure {}), sent to the dead letters at {}",
                    stage,
                    t.getClass().getName(),
                    count,
                    position,
                    LOG.isDebugEnabled() ? t : null);
        }
        String described;
        try {
            described = raw.get();
        } catch (RuntimeException | StackOverflowError e) {
            described = null;
        }
        return DeadLetter.of(stage, position, reason(stage, t), described);
    }

    /** The reason a dead letter gives: the stage, the exception's class and its message's start. */
    public static String reason(String stage, Throwable t) {
        String m = t.getMessage();
        if (m != null && m.length() > MAX_MESSAGE) {
            m = m.substring(0, MAX_MESSAGE) + "...";
        }
        return stage
                + " failed on this record: "
                + t.getClass().getName()
                + (m == null ? "" : ": " + m);
    }

    /**
     * The reason for a line a parser refused ({@code t} an {@link IllegalArgumentException}: its
     * message names the field) or that made it throw anything else one record can cause (the stage
     * and the exception); rethrows what is not the line's fault.
     */
    public static String lineReason(String stage, Throwable t) {
        rethrowIfNotTheRecords(t);
        if (t instanceof IllegalArgumentException && t.getMessage() != null) {
            return t.getMessage();
        }
        return reason(stage, t);
    }

    /** Rethrows {@code t} unless one record can have caused it (see the class comment). */
    public static void rethrowIfNotTheRecords(Throwable t) {
        if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
            throw (VirtualMachineError) t;
        }
        Throwable c = t;
        for (int depth = 0; c != null && depth < 20; depth++, c = c.getCause()) {
            if (c instanceof InterruptedException
                    || c.getClass().getName().startsWith("org.rocksdb.")
                    || isOutsideFailure(c)) {
                RecordFailure.<RuntimeException>sneaky(t);
            }
        }
    }

    /**
     * Whether {@code t} (or a cause) is an outside system failing: an {@link IOException} other
     * than a parser's, such as HBase not answering. Worth a retry later, not the record's fault.
     */
    public static boolean isOutsideFailure(Throwable t) {
        Throwable c = t;
        for (int depth = 0; c != null && depth < 20; depth++, c = c.getCause()) {
            if (c instanceof IOException
                    && !c.getClass().getName().startsWith("com.fasterxml.jackson.")) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
