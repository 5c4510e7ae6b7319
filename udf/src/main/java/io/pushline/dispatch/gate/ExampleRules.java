package io.pushline.dispatch.gate;

/** The example rules.yaml of docs/dispatch-gate.md: what the demo and the benchmark run with. */
public final class ExampleRules {
    public static final String YAML =
            String.join(
                    "\n",
                    "timezone: Asia/Shanghai",
                    "quietHours:  {start: \"23:00\", end: \"07:00\", exemptLevel: 3}",
                    "minInterval: {period: 30m, exemptLevel: 3}",
                    "dailyCap:    {limit: 5, exemptLevel: 3}",
                    "dedupe:      {window: 24h}",
                    "msgTypes:",
                    "  default:      {level: 1}",
                    "  news:         {level: 2, cap: {limit: 2, period: 1h}}",
                    "  album_update: {level: 1, cap: {limit: 1, period: 1h}}",
                    "  live_start:   {level: 3}",
                    "whitelist:",
                    "  msgTypes: [security_notice]",
                    "  devices:  [d-000042]",
                    "");

    /**
     * The same rules for the generated devices of the demo and the benchmarks ({@code
     * dev-0000042}).
     */
    public static final String WITH_GENERATED_DEVICES = YAML.replace("d-000042", "dev-0000042");

    private ExampleRules() {}
}
