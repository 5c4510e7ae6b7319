package io.pushline.dispatch;

import io.pushline.dispatch.gate.RulesParser;
import io.pushline.dispatch.gate.RulesUpdates;
import io.pushline.udf.RulesException;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;

/** The gate's start-up settings: the rules document in force and the state TTL, both checked. */
public final class GateSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    final String rules;
    final Duration stateTtl;
    Duration maxScheduleAhead = DispatchOptions.MAX_SCHEDULE_AHEAD.defaultValue();

    /** How far ahead of the wall clock a record's time may be; null (replay): no check. */
    Duration maxFuture;

    /** How far behind the wall clock a record's time may be; null (replay): no check. */
    Duration maxPast;

    public GateSettings(String rules, Duration stateTtl) {
        RulesUpdates.check(RulesParser.parse(rules), stateTtl);
        this.rules = rules;
        this.stateTtl = stateTtl;
    }

    /**
     * From {@code gate.rules} and {@code gate.state-ttl}.
     *
     * @throws IllegalArgumentException naming the option and the rules key when they are bad
     */
    public static GateSettings from(Configuration options) {
        GateSettings s = fromRules(options);
        s.maxScheduleAhead = options.get(DispatchOptions.MAX_SCHEDULE_AHEAD);
        if (s.maxScheduleAhead.isNegative()) {
            throw new IllegalArgumentException(
                    "option '" + DispatchOptions.MAX_SCHEDULE_AHEAD.key() + "' must be positive");
        }
        Duration future = options.get(DispatchOptions.MAX_FUTURE);
        if (future.isNegative()) {
            throw new IllegalArgumentException(
                    "option '" + DispatchOptions.MAX_FUTURE.key() + "' must not be negative");
        }
        s.maxFuture = future.isZero() ? null : future;
        Duration past = options.getOptional(DispatchOptions.MAX_PAST).orElse(s.stateTtl);
        if (past.isNegative()) {
            throw new IllegalArgumentException(
                    "option '" + DispatchOptions.MAX_PAST.key() + "' must not be negative");
        }
        s.maxPast = past.isZero() ? null : past;
        return s;
    }

    private static GateSettings fromRules(Configuration options) {
        String file = options.get(DispatchOptions.GATE_RULES);
        Duration ttl = options.get(DispatchOptions.GATE_STATE_TTL);
        if (file == null || file.isBlank()) {
            return new GateSettings("{}", ttl);
        }
        Path path = Paths.get(file);
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "option '"
                            + DispatchOptions.GATE_RULES.key()
                            + "': cannot read "
                            + path
                            + ": "
                            + e);
        }
        try {
            return new GateSettings(text, ttl);
        } catch (RulesException e) {
            throw new IllegalArgumentException(
                    "option '"
                            + DispatchOptions.GATE_RULES.key()
                            + "' ("
                            + path
                            + "): "
                            + e.getMessage());
        }
    }
}
