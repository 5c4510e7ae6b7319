package io.pushline.receipts.sql;

import java.util.Map;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * The catalog {@code pushline} with database {@code receipts}: {@code metrics_minute}, {@code
 * metrics_daily} and {@code lifecycle} over HBase, and two views that unnest the reason maps
 * ({@code drops_minute}, {@code fails_minute}). {@link #open} gives a batch SQL session on it.
 */
public final class ReceiptCatalog {
    public static final String CATALOG = "pushline";
    public static final String DATABASE = "receipts";

    private ReceiptCatalog() {}

    public static GenericInMemoryCatalog create(String quorum, String namespace) throws Exception {
        GenericInMemoryCatalog catalog = new GenericInMemoryCatalog(CATALOG, DATABASE);
        for (ReceiptTable t : ReceiptTable.values()) {
            catalog.createTable(
                    new ObjectPath(DATABASE, t.sqlName),
                    CatalogTable.newBuilder()
                            .schema(t.schema())
                            .comment(t.comment())
                            .options(
                                    Map.of(
                                            "connector",
                                            HBaseTableFactory.IDENTIFIER,
                                            HBaseTableFactory.TABLE.key(),
                                            t.sqlName,
                                            HBaseTableFactory.QUORUM.key(),
                                            quorum,
                                            HBaseTableFactory.NAMESPACE.key(),
                                            namespace))
                            .build(),
                    false);
        }
        return catalog;
    }

    /** A batch table environment whose current catalog and database are the receipts'. */
    public static TableEnvironment open(
            String quorum, String namespace, org.apache.flink.configuration.Configuration conf)
            throws Exception {
        TableEnvironment env =
                TableEnvironment.create(
                        EnvironmentSettings.newInstance()
                                .inBatchMode()
                                .withConfiguration(conf)
                                .build());
        // the tables' periods are UTC minutes and days: show them so, whatever the machine's zone
        env.getConfig().setLocalTimeZone(java.time.ZoneOffset.UTC);
        env.registerCatalog(CATALOG, create(quorum, namespace));
        env.useCatalog(CATALOG);
        env.useDatabase(DATABASE);
        env.executeSql(
                "CREATE TEMPORARY VIEW drops_minute AS SELECT window_start, msg_id, msg_type,"
                        + " vendor, reason, n FROM metrics_minute CROSS JOIN UNNEST(drops) AS d(reason, n)");
        env.executeSql(
                "CREATE TEMPORARY VIEW fails_minute AS SELECT window_start, msg_id, msg_type,"
                        + " vendor, code, n FROM metrics_minute CROSS JOIN UNNEST(fails) AS f(code, n)");
        return env;
    }
}
