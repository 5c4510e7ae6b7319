package io.pushline.receipts.sql;

import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * {@code 'connector' = 'pushline-hbase'}: reads the receipts job's HBase tables (scan, and lookup
 * on {@code lifecycle}). Flink 2.x has no HBase connector; this one knows only our tables and their
 * layout, which is all analysts need. {@link ReceiptCatalog} registers the tables with it.
 */
public class HBaseTableFactory implements DynamicTableSourceFactory {
    public static final String IDENTIFIER = "pushline-hbase";

    public static final ConfigOption<String> TABLE =
            ConfigOptions.key("table")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("metrics_minute, metrics_daily or lifecycle.");

    public static final ConfigOption<String> QUORUM =
            ConfigOptions.key("zookeeper.quorum")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("ZooKeeper quorum of the HBase cluster.");

    public static final ConfigOption<String> NAMESPACE =
            ConfigOptions.key("namespace")
                    .stringType()
                    .defaultValue("pushline")
                    .withDescription("HBase namespace of the tables.");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(TABLE, QUORUM);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(NAMESPACE);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        ReadableConfig options = helper.getOptions();
        ReceiptTable table = ReceiptTable.ofSqlName(options.get(TABLE));
        if (table == null) {
            throw new ValidationException(
                    "option 'table' must be metrics_minute, metrics_daily or lifecycle, not '"
                            + options.get(TABLE)
                            + "'");
        }
        List<String> columns = context.getCatalogTable().getResolvedSchema().getColumnNames();
        if (!columns.equals(table.columns())) {
            throw new ValidationException(
                    "table '"
                            + table.sqlName
                            + "' has the columns "
                            + table.columns()
                            + ", not "
                            + columns);
        }
        return new HBaseTableSource(options.get(QUORUM), options.get(NAMESPACE), table);
    }
}
