package io.pushline.serve;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.pushline.receipts.ReceiptTables;
import io.pushline.receipts.report.CampaignReport;
import io.pushline.schema.receipts.MetricRow;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.client.Connection;

/**
 * {@code GET /v1/push/{msgId}}: what became of a push, as the receipts job counted it in its
 * per-minute table (so at most a minute and the job's lateness behind): decided (passed plus
 * dropped), passed, dropped per reason, sent, delivered, clicked, failed. A msgId with no row: 404.
 */
final class PushStatusApi implements Api {
    /** The totals of a msgId over all its rows, or null when it has none. */
    interface Source {
        MetricRow total(String msgId) throws IOException;
    }

    /** The receipts tables in HBase (created when missing: the server may start first). */
    static Source hbase(Connection hbase, String namespace) throws IOException {
        ReceiptTables.ensure(hbase, namespace);
        return msgId -> {
            CampaignReport r = CampaignReport.load(hbase, namespace, msgId);
            return r.isEmpty() ? null : r.total;
        };
    }

    private final Source source;

    PushStatusApi(Source source) {
        this.source = source;
    }

    @Override
    public void routes(RoutesConfig r) {
        r.get("/v1/push/{msgId}", this::status);
    }

    private void status(Context ctx) throws IOException {
        String msgId = Server.id(ctx, "msgId");
        MetricRow t = source.total(msgId);
        if (t == null) {
            throw new Server.NotFound(
                    "msgId: no receipts for '"
                            + msgId
                            + "' (never sent, not decided yet, or older than the tables keep)");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("msgId", msgId);
        m.put("decided", t.passed + t.dropped);
        m.put("passed", t.passed);
        m.put("dropped", new LinkedHashMap<>(t.drops));
        m.put("sent", t.sent);
        m.put("delivered", t.delivered);
        m.put("clicked", t.clicked);
        m.put("failed", t.failed);
        Server.json(ctx, 200, m);
    }
}
