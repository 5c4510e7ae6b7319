package io.pushline.dispatch.pacing;

import io.pushline.schema.Vendor;
import io.pushline.schema.pacing.VendorPacing;
import java.io.Serializable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the pacer enforces: a rate per vendor (messages per second, over all subtasks together), a
 * weight per level, and the lowest realtime level. Built from the job's options, then changed by
 * the {@code pacing} section of a rules document (see {@link Overrides}).
 */
public final class PacingConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * Conservative defaults from what vendors publish: FCM ~10,000/s per project, Huawei a few
     * thousand QPS, Honor 3,000, Xiaomi 500–3,000, OPPO 5,000–30,000, vivo 3,000–5,000; APNs
     * publishes no cap; the long connection is ours.
     */
    public static final Map<String, Double> DEFAULT_RATES = defaultRates();

    public static final int DEFAULT_REALTIME_LEVEL = 3;

    private final double[] rates;
    private final int[] weights;
    private final int realtimeLevel;

    public PacingConfig(Map<String, Double> rates, Map<Integer, Integer> weights, int realtime) {
        this.rates = new double[Vendor.values().length];
        for (Vendor v : Vendor.values()) {
            this.rates[v.ordinal()] = DEFAULT_RATES.get(v.wireName());
        }
        this.weights = defaultWeights();
        this.realtimeLevel = realtime;
        apply(rates, weights);
        checkRealtime(realtime, "realtime level");
    }

    private PacingConfig(double[] rates, int[] weights, int realtimeLevel) {
        this.rates = rates;
        this.weights = weights;
        this.realtimeLevel = realtimeLevel;
    }

    public static PacingConfig defaults() {
        return new PacingConfig(Map.of(), Map.of(), DEFAULT_REALTIME_LEVEL);
    }

    /** This configuration with a rules document's pacing section on top. */
    public PacingConfig with(Overrides o) {
        PacingConfig c =
                new PacingConfig(
                        rates.clone(),
                        weights.clone(),
                        o.realtimeLevel != null ? o.realtimeLevel : realtimeLevel);
        c.apply(o.rates, o.weights);
        return c;
    }

    public double rate(String vendor) {
        Vendor v = Vendor.fromWire(vendor);
        if (v == null) {
            throw new IllegalArgumentException("unknown vendor '" + vendor + "'");
        }
        return rates[v.ordinal()];
    }

    /** The weight of each level 0..VendorPacing.LEVELS-1 (a copy). */
    public int[] weights() {
        return weights.clone();
    }

    public int realtimeLevel() {
        return realtimeLevel;
    }

    private void apply(Map<String, Double> newRates, Map<Integer, Integer> newWeights) {
        for (Map.Entry<String, Double> e : newRates.entrySet()) {
            Vendor v = Vendor.fromWire(e.getKey());
            if (v == null) {
                throw new IllegalArgumentException(
                        "rates." + e.getKey() + ": unknown vendor (one of " + vendorNames() + ")");
            }
            if (!(e.getValue() > 0) || e.getValue().isInfinite()) {
                throw new IllegalArgumentException(
                        "rates." + e.getKey() + ": must be a positive number, got " + e.getValue());
            }
            rates[v.ordinal()] = e.getValue();
        }
        for (Map.Entry<Integer, Integer> e : newWeights.entrySet()) {
            int level = e.getKey();
            if (level < 0 || level >= VendorPacing.LEVELS) {
                throw new IllegalArgumentException(
                        "weights." + level + ": levels are 0 to " + (VendorPacing.LEVELS - 1));
            }
            if (e.getValue() < 1 || e.getValue() > 1 << 20) {
                throw new IllegalArgumentException(
                        "weights." + level + ": must be 1 to 1048576, got " + e.getValue());
            }
            weights[level] = e.getValue();
        }
    }

    private static void checkRealtime(int level, String key) {
        if (level < 0 || level > VendorPacing.LEVELS) {
            throw new IllegalArgumentException(
                    key + ": must be 0 to " + VendorPacing.LEVELS + ", got " + level);
        }
    }

    /** Level l weighs 2^l (as the seeds' priority topics), capped at 2^15. */
    static int[] defaultWeights() {
        int[] w = new int[VendorPacing.LEVELS];
        for (int l = 0; l < w.length; l++) {
            w[l] = 1 << Math.min(l, 15);
        }
        return w;
    }

    private static Map<String, Double> defaultRates() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("apns", 10_000.0);
        m.put("fcm", 10_000.0);
        m.put("huawei", 3_000.0);
        m.put("honor", 3_000.0);
        m.put("xiaomi", 500.0);
        m.put("oppo", 5_000.0);
        m.put("vivo", 3_000.0);
        m.put("longconn", 20_000.0);
        return java.util.Collections.unmodifiableMap(m);
    }

    static String vendorNames() {
        StringBuilder b = new StringBuilder();
        for (Vendor v : Vendor.values()) {
            b.append(b.length() == 0 ? "" : ", ").append(v.wireName());
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PacingConfig
                && Arrays.equals(rates, ((PacingConfig) o).rates)
                && Arrays.equals(weights, ((PacingConfig) o).weights)
                && realtimeLevel == ((PacingConfig) o).realtimeLevel;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(rates) * 31 + realtimeLevel;
    }

    /**
     * The {@code pacing} section of a rules document:
     *
     * <pre>
     * pacing:
     *   rates:   {fcm: 8000, xiaomi: 1500}   # per second; unlisted vendors keep the job's rate
     *   weights: {0: 1, 4: 32}               # per level; unlisted levels keep theirs
     *   realtimeLevel: 3
     * </pre>
     */
    public static final class Overrides implements Serializable {
        private static final long serialVersionUID = 1L;

        public final Map<String, Double> rates;
        public final Map<Integer, Integer> weights;
        public final Integer realtimeLevel;

        public Overrides(
                Map<String, Double> rates, Map<Integer, Integer> weights, Integer realtimeLevel) {
            this.rates = rates;
            this.weights = weights;
            this.realtimeLevel = realtimeLevel;
            if (realtimeLevel != null) {
                checkRealtime(realtimeLevel, "realtimeLevel");
            }
            defaults().with(this); // validates names and values
        }
    }
}
