package io.pushline.dispatch;

import org.apache.flink.configuration.Configuration;

/**
 * The settings of each stage of the dispatch topology, each read from the job's options by its own
 * class (see docs/options.md): which capabilities are on is which of them are present.
 *
 * @param gate the gate's rules and state TTL (always on)
 * @param audience campaign expansion; {@link AudienceSettings#none()} without campaigns
 * @param pacing per-vendor pacing; null sends unpaced
 * @param reminders scheduled reminders; null without them (they need campaigns)
 * @param maxParallelism every operator's max parallelism (the key groups of its state)
 */
public record DispatchSettings(
        GateSettings gate,
        AudienceSettings audience,
        PacingSettings pacing,
        ReminderSettings reminders,
        int maxParallelism) {
    public DispatchSettings {
        if (gate == null || audience == null) {
            throw new IllegalArgumentException("gate and audience settings are required");
        }
        if (reminders != null && audience.audiences == null) {
            throw new IllegalArgumentException("reminders need campaigns (audience settings)");
        }
    }

    /** The gate alone: no campaigns, no pacing, no reminders (the replay's topology). */
    public static DispatchSettings gateOnly(GateSettings gate, int maxParallelism) {
        return new DispatchSettings(gate, AudienceSettings.none(), null, null, maxParallelism);
    }

    /** Every stage's settings from the job's options; a bad value names its key. */
    public static DispatchSettings from(Configuration options) {
        AudienceSettings audience = AudienceSettings.from(options);
        GateSettings gate = GateSettings.from(options);
        return new DispatchSettings(
                gate,
                audience,
                PacingSettings.from(options, gate),
                audience.audiences == null ? null : ReminderSettings.from(options),
                options.get(DispatchOptions.MAX_PARALLELISM));
    }

    boolean campaigns() {
        return audience.audiences != null;
    }
}
