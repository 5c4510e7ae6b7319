package io.pushline.dispatch;

import io.pushline.dispatch.gate.Rules;
import io.pushline.dispatch.gate.RulesParser;
import io.pushline.dispatch.pacing.Pacer;
import io.pushline.dispatch.pacing.PacingConfig;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/** The pacer's start-up settings, checked: options, then the start-up rules' pacing section. */
public final class PacingSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The options alone: what a rules document without a pacing section goes back to. */
    final PacingConfig options;

    /** In force at start: the options with the start-up rules' pacing section on top. */
    final PacingConfig initial;

    final long tickMs;
    final double throttleFactor;
    final double recoveryPerSecond;

    /** Campaign expansion pauses while a vendor has more than this waiting; 0: never. */
    final long maxBacklog;

    PacingSettings(
            PacingConfig options,
            PacingConfig initial,
            long tickMs,
            double throttleFactor,
            double recoveryPerSecond,
            long maxBacklog) {
        this.options = options;
        this.initial = initial;
        this.tickMs = tickMs;
        this.throttleFactor = throttleFactor;
        this.recoveryPerSecond = recoveryPerSecond;
        this.maxBacklog = maxBacklog;
    }

    /** Default pacing with these rates (for tests and benchmarks). */
    public static PacingSettings of(Map<String, Double> rates) {
        PacingConfig c = new PacingConfig(rates, Map.of(), PacingConfig.DEFAULT_REALTIME_LEVEL);
        return new PacingSettings(
                c, c, 10, 0.5, 0.05, DispatchOptions.PACING_MAX_BACKLOG.defaultValue());
    }

    Pacer pacer() {
        return new Pacer(initial, tickMs, throttleFactor, recoveryPerSecond);
    }

    /**
     * From the {@code pacing.*} options and the start-up rules ({@code gate}), or null when {@code
     * pacing.enabled} is false.
     *
     * @throws IllegalArgumentException naming the option when a value is bad
     */
    public static PacingSettings from(Configuration options, GateSettings gate) {
        if (!options.get(DispatchOptions.PACING_ENABLED)) {
            return null;
        }
        Map<String, Double> rates = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.get(DispatchOptions.PACING_RATES).entrySet()) {
            rates.put(e.getKey(), number(DispatchOptions.PACING_RATES, e.getKey(), e.getValue()));
        }
        Map<Integer, Integer> weights = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.get(DispatchOptions.PACING_WEIGHTS).entrySet()) {
            int level = (int) number(DispatchOptions.PACING_WEIGHTS, e.getKey(), e.getKey());
            weights.put(
                    level, (int) number(DispatchOptions.PACING_WEIGHTS, e.getKey(), e.getValue()));
        }
        PacingConfig fromOptions;
        try {
            fromOptions =
                    new PacingConfig(
                            rates, weights, options.get(DispatchOptions.PACING_REALTIME_LEVEL));
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            String key =
                    m.startsWith("rates.")
                            ? DispatchOptions.PACING_RATES.key()
                            : m.startsWith("weights.")
                                    ? DispatchOptions.PACING_WEIGHTS.key()
                                    : DispatchOptions.PACING_REALTIME_LEVEL.key();
            throw new IllegalArgumentException("option '" + key + "': " + m);
        }
        long tick = options.get(DispatchOptions.PACING_TICK).toMillis();
        if (tick < 1 || tick > 1000) {
            throw bad(DispatchOptions.PACING_TICK, "must be 1 ms to 1 s");
        }
        double factor = options.get(DispatchOptions.PACING_THROTTLE_FACTOR);
        if (!(factor > 0 && factor < 1)) {
            throw bad(DispatchOptions.PACING_THROTTLE_FACTOR, "must be between 0 and 1");
        }
        double recovery = options.get(DispatchOptions.PACING_RECOVERY);
        if (!(recovery > 0 && recovery <= 1)) {
            throw bad(DispatchOptions.PACING_RECOVERY, "must be above 0 and at most 1");
        }
        long maxBacklog = options.get(DispatchOptions.PACING_MAX_BACKLOG);
        if (maxBacklog < 0) {
            throw bad(DispatchOptions.PACING_MAX_BACKLOG, "must be 0 (never pause) or more");
        }
        Rules rules = RulesParser.parse(gate.rules);
        PacingConfig initial = rules.pacing == null ? fromOptions : fromOptions.with(rules.pacing);
        return new PacingSettings(fromOptions, initial, tick, factor, recovery, maxBacklog);
    }

    private static double number(ConfigOption<?> option, String key, String value) {
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw bad(option, "'" + key + ":" + value + "' is not a number");
        }
    }

    private static IllegalArgumentException bad(ConfigOption<?> option, String why) {
        return new IllegalArgumentException("option '" + option.key() + "': " + why);
    }
}
