package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.inbox.InboxOptions;
import io.pushline.serve.ServeOptions;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.description.HtmlFormatter;

/** {@code ./pushline help [options]}. */
final class Help {
    static final String TEXT =
            String.join(
                    "\n",
                    "Pushline: push-notification pipeline on Apache Flink.",
                    "",
                    "Usage: ./pushline COMMAND [ARGS]",
                    "",
                    "Commands:",
                    "  demo [--devices N] [--requests M] [--users U] [--keep [--port P]]",
                    "                       start the embedded stack, bind N devices (default 100000),",
                    "                       send M push requests (default 3000) through the dispatch job,",
                    "                       print a summary, stop everything; --keep: leave the stack,",
                    "                       the dispatch job and the console (port P, default 8080) up",
                    "                       until Ctrl-C",
                    "  local up [--dir DIR] run the embedded stack (Kafka KRaft, HBase) in the foreground",
                    "                       until Ctrl-C; prints and writes DIR/local.env (default .pushline)",
                    "  run dispatch|receipts|longconn|all [--key value ...]",
                    "                       run a streaming job (all: every one, on one MiniCluster) on",
                    "                       local Flink (RocksDB) until Ctrl-C, against",
                    "                       .pushline/local.env or the given options",
                    "  cluster up | down [--purge] | status",
                    "                       a real Flink session cluster on this machine (JobManager,",
                    "                       two TaskManagers, Kafka, HBase: each its own process; web UI",
                    "                       http://localhost:8081); files under .pushline/cluster",
                    "  cluster submit dispatch|receipts|longconn [--from-savepoint P] [--key value ...]",
                    "                       submit a job's shaded jar with Flink's own CLI",
                    "  cluster stop JOB_ID | kill PROCESS",
                    "                       stop a job with a savepoint; kill -9 a process (up restarts it)",
                    "  replay --rules R --trace T [--segments DIR] --out O",
                    "                       the gate over a trace file (docs/dispatch-gate.md); bad lines",
                    "                       to stderr and O.rejected",
                    "  reminders replay [--rules R] --trace T --out O",
                    "                       scheduled reminders over a trace file (docs/reminders.md);",
                    "                       bad lines to stderr and O.rejected",
                    "  longconn replay [--rules R] --trace T --out O",
                    "                       long-connection acks, retries and fallbacks over a trace",
                    "                       file (docs/longconn.md); bad lines to stderr and O.rejected",
                    "  serve [--port 8080]  the HTTP API for app backends: reminders to pull ahead and",
                    "                       inboxes (docs/inbox.md), against .pushline/local.env or the",
                    "                       given options",
                    "  sendtime --activity FILE --date YYYY-MM-DD [--rules R] --out O",
                    "                       each user's first and last push time (docs/send-time.md); bad",
                    "                       lines to stderr and O.rejected",
                    "  gen [--users N] [--days D] [--date YYYY-MM-DD] [--seed S] [--out DIR]",
                    "                       generated users with known habits (activity, truth)",
                    "  recall --data DIR --date YYYY-MM-DD [--k 5] [--pushed-days 7] --out O",
                    "                       each user's top items for the day's pushes",
                    "  audience eval --segments DIR --expr 'EXPR' [--universe FILE] [--count]",
                    "                       the uids an audience expression selects (docs/audience-expressions.md)",
                    "  audience eval --expr 'EXPR' [--count] | count 'EXPR' | explain 'EXPR'",
                    "                       the same over the HBase segment store (default without",
                    "                       --segments); explain prints the tree with each node's size",
                    "  audience list        segments in the store: size, version, age, source",
                    "  audience dry-run --expr 'EXPR' --msg-type TYPE [--checkpoints DIR]",
                    "                       what the dispatch job's gate would do with a campaign",
                    "                       now, from the job's own state",
                    "  audience build [--files DIR] [--key value ...]",
                    "                       the segment build job: package files and segment.changes",
                    "                       into the store",
                    "  bench gate [--devices N] [--events M] [--warmup W] [--repeat R]",
                    "                       gate vs a plain keyed count on one MiniCluster, state bytes",
                    "  bench audience [--universe N] [--runs R] [--campaign DEVICES]",
                    "                       evaluator vs hand-written bitmaps, store, campaign",
                    "  bench pacing [--devices N] [--seconds S] [--realtime-per-second R]",
                    "                       three paced vendors, weighted backlogs, realtime latency;",
                    "                       CSV and HTML chart under .pushline/bench",
                    "  bench reminders [--subscribers N] [--tasks T] [--rate R] [--lead S]",
                    "                  [--meter-delay D]",
                    "                       tasks firing together at one reminder rate, end to end",
                    "  bench sendtime [--users N] [--seed S]",
                    "                       plain reduce vs send-time predictors, accuracy vs truth",
                    "  bench nightly [--users N] [--seed S] [--only sendtime|recall] [--repeat R]",
                    "                       the nightly job's halves vs plain BATCH reduces",
                    "  bench receipts [--events N] [--devices D] [--repeat R]",
                    "                       the receipts job's operators vs a plain keyed count",
                    "  bench latency [--devices N] [--realtime-per-second R] [--set key=value ...]",
                    "                       realtime pushes as a read_committed gateway sees them,",
                    "                       alone and behind a campaign; the campaign's devices/s",
                    "  bench longconn [--sends N] [--devices D] [--tracker-sends M] [--repeat R]",
                    "                       retry policies over a population with outages; the ack",
                    "                       tracker vs a plain keyed count",
                    "  bench inbox [--users N] [--clients C] [--seconds S] [--cache SIZE]",
                    "                       inbox first-page reads over HTTP, cold and warm",
                    "  bench chaos [--devices N] [--faults kill,kafka,hbase,savepoint]",
                    "                       faults on a real multi-process cluster; exits 1 on any",
                    "                       duplicate or missing send",
                    "  bench hostile [--per-case SECONDS]",
                    "                       hostile records against a dispatch job (needs local up)",
                    "  bench jmh [REGEX] [JMH options]",
                    "                       JMH micro benchmarks of the hot paths",
                    "  trace MSGID DEVICEID did the device get the message, and if not, why (the",
                    "                       lifecycle row of the receipts job)",
                    "  sql [-e 'QUERY']     Flink SQL on the receipts tables (metrics_minute,",
                    "                       metrics_daily, lifecycle); -e runs one query and prints it",
                    "  report --campaign MSGID [--out FILE.html]",
                    "                       a campaign's funnel, and an HTML page with its charts",
                    "  produce TOPIC [FILE] send JSON lines (stdin or FILE) to a topic of the local stack",
                    "  consume TOPIC [--follow]",
                    "                       print a topic's committed records (and wait for more)",
                    "  help options         every job's options with their defaults, job by job",
                    "  help                 this text",
                    "",
                    "Environment: PUSHLINE_HOME (default .pushline) holds all local data;",
                    "JAVA_OPTS is passed to the JVM.",
                    "");

    private Help() {}

    /**
     * The lines of {@link #TEXT} about one command (its usage lines and their descriptions), empty
     * when there is no such command.
     */
    static String usageOf(String command) {
        StringBuilder out = new StringBuilder();
        boolean in = false;
        for (String line : TEXT.split("\n")) {
            boolean entry = line.startsWith("  ") && !line.startsWith("   ");
            if (entry) {
                String name = line.trim().split("\\s+")[0];
                in = name.equals(command);
            } else if (!line.startsWith("   ")) {
                in = false;
            }
            if (in) {
                out.append(line).append('\n');
            }
        }
        return out.toString();
    }

    static int run(String[] args) {
        if (args.length > 0 && args[0].equals("options")) {
            System.out.print(options());
        } else {
            System.out.print(TEXT);
        }
        return 0;
    }

    /**
     * Every job's options, generated from the options classes: the common ones once, then each
     * job's own (what its command line accepts besides the common ones).
     */
    static String options() {
        StringBuilder b = new StringBuilder();
        section(b, "Common (every job)", CommonOptions.all());
        b.append(CommonOptions.KAFKA_PROPERTIES_ROW);
        b.append(CommonOptions.HBASE_PROPERTIES_ROW);
        section(b, "Inbox (the dispatch job and `serve`)", InboxOptions.all());
        section(b, "HTTP server (`./pushline serve`)", ServeOptions.own());
        for (JobOptions job : JobOptions.ALL) {
            section(b, job.title(), job.own());
        }
        return b.toString();
    }

    private static void section(StringBuilder b, String title, List<ConfigOption<?>> options) {
        if (b.length() > 0) {
            b.append('\n');
        }
        b.append("### ").append(title).append("\n\n");
        b.append("| option | default | description |\n|---|---|---|\n");
        HtmlFormatter f = new HtmlFormatter();
        for (ConfigOption<?> o : options) {
            b.append("| `")
                    .append(o.key())
                    .append("` | ")
                    .append(o.hasDefaultValue() ? "`" + format(o.defaultValue()) + "`" : "(none)")
                    .append(" | ")
                    .append(f.format(o.description()))
                    .append(deprecated(o))
                    .append(" |\n");
        }
    }

    private static String deprecated(ConfigOption<?> o) {
        List<String> old = new ArrayList<>();
        for (FallbackKey k : o.fallbackKeys()) {
            if (k.isDeprecated()) {
                old.add("`" + k.getKey() + "`");
            }
        }
        return old.isEmpty() ? "" : " (Was " + String.join(", ", old) + ", still accepted.)";
    }

    private static String format(Object v) {
        if (v instanceof java.time.Duration) {
            long ms = ((java.time.Duration) v).toMillis();
            long[] units = {86_400_000L, 3_600_000L, 60_000L, 1000L};
            String[] names = {" d", " h", " min", " s"};
            for (int i = 0; i < units.length; i++) {
                if (ms > 0 && ms % units[i] == 0) {
                    return ms / units[i] + names[i];
                }
            }
            return ms + " ms";
        }
        return String.valueOf(v);
    }
}
