package io.pushline.bench;

import io.pushline.common.UsageException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every benchmark of {@code ./pushline bench}: its name, its usage and how to run it. Adding a
 * benchmark is one line here and a class with a {@code run(String[] args)} that returns the exit
 * code. {@code --help} (or {@code -h}) anywhere prints the usage and runs nothing.
 */
final class Benches {
    /** A benchmark: its arguments (without the name) in, its exit code out. */
    @FunctionalInterface
    interface Bench {
        int run(String[] args) throws Exception;
    }

    /** One benchmark as {@code ./pushline bench} knows it. */
    record Entry(String name, String usage, String what, Bench bench) {}

    static final List<Entry> ALL =
            List.of(
                    new Entry(
                            "gate",
                            "[--devices N] [--events M] [--warmup W] [--repeat R]",
                            "the gate vs a plain keyed count on one MiniCluster, state bytes",
                            GateBench::gate),
                    new Entry(
                            "audience",
                            "[--universe N] [--runs R] [--campaign DEVICES]",
                            "the evaluator vs hand-written bitmaps, the store, a campaign",
                            AudienceBench::run),
                    new Entry(
                            "pacing",
                            "[--devices N] [--seconds S] [--realtime-per-second R] [--out DIR]"
                                    + " [--repeat R]",
                            "three paced vendors, weighted backlogs, realtime latency",
                            PacingBench::run),
                    new Entry(
                            "reminders",
                            "[--subscribers N] [--tasks T] [--rate R] [--lead SECONDS]"
                                    + " [--meter-delay D]",
                            "reminder tasks firing together at one rate, end to end",
                            ReminderBench::run),
                    new Entry(
                            "sendtime",
                            "[--users N] [--seed S] [--repeat R]",
                            "a plain reduce vs the send-time predictors, accuracy vs truth",
                            SendTimeBench::run),
                    new Entry(
                            "nightly",
                            "[--users N] [--seed S] [--only sendtime|recall] [--repeat R]",
                            "the nightly job's halves vs plain BATCH reduces",
                            NightlyBench::run),
                    new Entry(
                            "receipts",
                            "[--events N] [--devices D] [--repeat R]",
                            "the receipts job's operators vs a plain keyed count",
                            ReceiptsBench::run),
                    new Entry(
                            "latency",
                            "[--devices N] [--realtime-per-second R] [--set key=value ...]",
                            "realtime pushes as a read_committed gateway sees them",
                            LatencyBench::run),
                    new Entry(
                            "longconn",
                            "[--sends N] [--devices D] [--tracker-sends M] [--tracker-devices E]"
                                    + " [--tracker-rate F] [--seed S] [--repeat R]",
                            "retry policies over outages; the ack tracker vs a keyed count",
                            LongconnBench::run),
                    new Entry(
                            "inbox",
                            "[--users N] [--messages-per-user M] [--broadcasts B] [--clients C]"
                                    + " [--seconds S] [--cache SIZE]",
                            "inbox first-page reads over HTTP, cold and warm",
                            InboxBench::run),
                    new Entry(
                            "chaos",
                            "[--devices N] [--realtime-per-second R] [--rate PER_VENDOR] [--faults"
                                    + " kill,kafka,hbase,savepoint] [--upgrade-from REV|none]"
                                    + " [--set key=value ...]",
                            "faults on a real multi-process cluster; exit 1 on any loss",
                            ChaosBench::run),
                    new Entry(
                            "hostile",
                            "[--per-case SECONDS]",
                            "hostile records against a dispatch job (needs local up)",
                            HostileBench::run),
                    new Entry(
                            "jmh",
                            "[REGEX] [JMH options]",
                            "JMH micro benchmarks of the hot paths",
                            JmhCommand::run));

    private Benches() {}

    /** Runs {@code ./pushline bench NAME ARGS...}. */
    static int run(String[] args) throws Exception {
        if (args.length == 0 || isHelp(args[0])) {
            System.out.print(usage(ALL));
            return 0;
        }
        Entry entry = byName().get(args[0]);
        if (entry == null) {
            throw new UsageException("unknown benchmark '" + args[0] + "'\n" + usage(ALL));
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        // JMH has its own -h; every other benchmark answers --help here, before any work.
        if (!entry.name().equals("jmh") && Arrays.stream(rest).anyMatch(Benches::isHelp)) {
            System.out.print(usage(List.of(entry)));
            return 0;
        }
        return entry.bench().run(rest);
    }

    static String usage(List<Entry> entries) {
        StringBuilder out = new StringBuilder(entries.size() > 1 ? "Benchmarks:\n" : "");
        for (Entry e : entries) {
            out.append("  ./pushline bench ")
                    .append(e.name())
                    .append(' ')
                    .append(e.usage())
                    .append("\n      ")
                    .append(e.what())
                    .append('\n');
        }
        return out.toString();
    }

    private static Map<String, Entry> byName() {
        Map<String, Entry> m = new LinkedHashMap<>();
        ALL.forEach(e -> m.put(e.name(), e));
        return m;
    }

    private static boolean isHelp(String arg) {
        return arg.equals("--help") || arg.equals("-h");
    }
}
