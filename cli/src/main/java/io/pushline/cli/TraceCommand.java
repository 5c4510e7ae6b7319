package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.JobOptionArgs;
import io.pushline.receipts.ReceiptTables;
import io.pushline.schema.receipts.Lifecycle;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ./pushline trace MSGID DEVICEID}: did the device get the message, and if not, why. Reads
 * the message's lifecycle row written by the receipts job.
 */
@Command(
        name = "trace",
        mixinStandardHelpOptions = true,
        preprocessor = JobOptionArgs.class,
        description = {
            "Did the device get the message, and if not, why: the message's lifecycle row of the"
                    + " receipts job. A drop that found no device is traced as DEVICEID uid:UID.",
            "Reads the receipts tables of the local stack, or --hbase.zookeeper.quorum Q"
                    + " [--hbase.namespace NS]."
        })
final class TraceCommand extends JobOptionArgs.Command implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "MSGID")
    String msgId;

    @Parameters(index = "1", paramLabel = "DEVICEID")
    String deviceId;

    @Override
    public Integer call() throws Exception {
        Configuration o = ReceiptsCli.options(jobOptions());
        Result res;
        try (Connection c =
                        ConnectionFactory.createConnection(
                                HBaseTables.clientConf(HBaseTables.address(o)));
                Table t =
                        c.getTable(
                                TableName.valueOf(
                                        o.get(CommonOptions.HBASE_NAMESPACE),
                                        ReceiptTables.LIFECYCLE))) {
            res = t.get(new Get(ReceiptTables.lifecycleRow(msgId, deviceId)));
        }
        if (res.isEmpty()) {
            System.out.println(
                    "no lifecycle for message '"
                            + msgId
                            + "' and device '"
                            + deviceId
                            + "': the gate never decided it, the receipts job has not seen it"
                            + " yet, or it is older than "
                            + ReceiptTables.LIFECYCLE_TTL_SECONDS / 86_400
                            + " days");
            return 1;
        }
        System.out.print(describe(ReceiptTables.lifecycle(res)));
        return 0;
    }

    static String describe(Lifecycle l) {
        StringBuilder b = new StringBuilder();
        int status = l.status();
        b.append(
                String.format(
                        "message %s to device %s (uid %s, vendor %s, msgType %s)%n",
                        l.msgId, l.deviceId, or(l.uid), or(l.vendor), or(l.msgType)));
        b.append(
                String.format("  status     %s (code %d)%n", Lifecycle.statusName(status), status));
        if (l.decision != null) {
            b.append(
                    String.format(
                            "  decision   %s%s at %s%n",
                            l.decision, l.reason == null ? "" : " " + l.reason, time(l.decidedAt)));
        } else {
            b.append("  decision   none seen (receipts came without one)\n");
        }
        line(b, "sent", l.sentAt, l.decidedAt, null);
        line(b, "delivered", l.deliveredAt, l.decidedAt, null);
        line(b, "clicked", l.clickedAt, l.decidedAt, null);
        line(
                b,
                "failed",
                l.failedAt,
                l.decidedAt,
                l.failCode == null ? null : "code " + l.failCode);
        line(b, "token", l.tokenInvalidAt, l.decidedAt, "reported invalid: the device was unbound");
        longconn(b, l);
        b.append("  ").append(explain(l, status)).append('\n');
        return b.toString();
    }

    private static String explain(Lifecycle l, int status) {
        switch (status) {
            case Lifecycle.CLICKED:
                return "=> delivered and opened";
            case Lifecycle.DELIVERED:
                return "=> delivered, not opened (yet)";
            case Lifecycle.SENT:
                return "=> handed to the vendor, no delivery report (yet)";
            case Lifecycle.PASSED:
                return "=> passed the gate, not reported sent (yet): waiting in pacing, or the"
                        + " gateway has not reported";
            case Lifecycle.FAILED:
                return "=> the vendor refused it (" + or(l.failCode) + ")";
            case Lifecycle.TOKEN_INVALID:
                return "=> the device's token is dead; it was unbound from the registry";
            case Lifecycle.UNKNOWN:
                return "=> only receipts seen, no decision";
            default:
                return "=> not sent: the gate dropped it (" + or(l.reason) + ")";
        }
    }

    /** The long connection's attempts: each retry, then the ack, fallback or give-up. */
    private static void longconn(StringBuilder b, Lifecycle l) {
        if (l.lcRetryAt != null) {
            for (int k = 1; k <= l.lcRetryAt.length; k++) {
                line(
                        b,
                        "retry " + k,
                        l.lcRetryAt[k - 1],
                        l.decidedAt,
                        "resent on the long connection");
            }
        }
        if (l.lcRetries > Lifecycle.MAX_RETRY_TIMES) {
            b.append(
                    String.format(
                            "  %-10s (%d retries in all; the first %d are listed)%n",
                            "", l.lcRetries, Lifecycle.MAX_RETRY_TIMES));
        }
        line(
                b,
                "acked",
                l.lcAckedAt,
                l.decidedAt,
                l.lcCompensationMs < 0
                        ? "by the app"
                        : String.format(
                                "by the app after %d retries: compensation %.1f s",
                                l.lcRetries, l.lcCompensationMs / 1000.0));
        line(
                b,
                "fallback",
                l.lcFallbackAt,
                l.decidedAt,
                l.lcFallbackVendor == null
                        ? "offline, and no vendor channel: undeliverable"
                        : "offline: sent on " + l.lcFallbackVendor);
        line(b, "gave up", l.lcGiveUpAt, l.decidedAt, "no ack within the longest delay");
    }

    private static void line(StringBuilder b, String what, long at, long from, String note) {
        if (at == Lifecycle.NONE) {
            return;
        }
        b.append(String.format("  %-10s %s", what, time(at)));
        if (from != Lifecycle.NONE) {
            b.append(String.format(" (+%.1f s)", (at - from) / 1000.0));
        }
        if (note != null) {
            b.append("  ").append(note);
        }
        b.append('\n');
    }

    private static String time(long ms) {
        return Instant.ofEpochMilli(ms).toString();
    }

    private static String or(String s) {
        return s == null ? "-" : s;
    }
}
