package io.pushline.bench;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How long before the firing {@code bench reminders} creates its tasks: a fixed number of seconds,
 * or {@code auto}, sized from the pace this machine applies subscriptions at in the same round.
 *
 * <p>A task fires only once event time passes its {@code fireAt}, that is once every subscription
 * produced before it has been applied, and a frozen task's {@code fireAt} cannot move. A round
 * whose subscriptions are still being applied at {@code fireAt} measures how fast the machine
 * applies subscriptions, not the firing; on a slow day the fixed 150 s did not cover 3.9 million
 * events (applied at 9,000-12,500 a second against 28,000 on other days). So {@code auto} first
 * measures: subscriptions to tasks of their own that fire long after the round (a tenth of the
 * subscribers each), timed from the first produced to the last applied, then allows for the round's
 * events at a fifth below that rate, plus a margin for the last pulls and the watermark's way to
 * the tasks.
 */
record ReminderLead(int fixedSeconds) {
    /** The least lead {@code auto} chooses. */
    static final int MIN_SECONDS = 60;

    /** The share of the measured rate that {@code auto} counts on. */
    static final double RATE_SHARE = 0.8;

    /** Added to the estimate. */
    static final int MARGIN_SECONDS = 30;

    static final ReminderLead AUTO = new ReminderLead(0);

    boolean auto() {
        return fixedSeconds == 0;
    }

    /**
     * The lead for a round that produces {@code events} subscription events on a machine that
     * applied them at {@code eventsPerSecond} just before.
     */
    int seconds(long events, double eventsPerSecond) {
        if (!auto()) {
            return fixedSeconds;
        }
        if (!(eventsPerSecond > 0)) {
            throw new IllegalArgumentException("no subscription rate measured");
        }
        double estimate = events / (RATE_SHARE * eventsPerSecond);
        return (int) Math.max(MIN_SECONDS, Math.ceil(estimate) + MARGIN_SECONDS);
    }

    @Override
    public String toString() {
        return auto() ? "auto" : Integer.toString(fixedSeconds);
    }

    /** Reads {@code auto} or a positive number of seconds. */
    static final class Converter implements ITypeConverter<ReminderLead> {
        @Override
        public ReminderLead convert(String value) {
            if ("auto".equalsIgnoreCase(value.trim())) {
                return AUTO;
            }
            try {
                int s = Integer.parseInt(value.trim());
                if (s > 0) {
                    return new ReminderLead(s);
                }
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
            throw new TypeConversionException(
                    "--lead must be 'auto' or a positive number of seconds, not '" + value + "'");
        }
    }
}
