package io.pushline.cli;

import io.pushline.common.CommonOptions;
import io.pushline.common.HBaseTables;
import io.pushline.common.JobOptionArgs;
import io.pushline.receipts.sql.ReceiptCatalog;
import io.pushline.receipts.sql.ReceiptSql;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.TableEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./pushline sql [-e 'QUERY']}: Flink SQL (batch) on the receipts tables of catalog {@code
 * pushline}, database {@code receipts}. With {@code -e}, runs one statement and prints its table;
 * without, reads statements ending in {@code ;} from standard input until {@code quit;} or EOF.
 */
@Command(
        name = "sql",
        mixinStandardHelpOptions = true,
        preprocessor = JobOptionArgs.class,
        description = {
            "Flink SQL (batch) on the receipts tables (metrics_minute, metrics_daily, lifecycle);"
                    + " without -e, statements ending in ';' from stdin until 'quit;'.",
            "Reads the receipts tables of the local stack, or --hbase.zookeeper.quorum Q"
                    + " [--hbase.namespace NS]."
        })
final class SqlCommand extends JobOptionArgs.Command implements Callable<Integer> {
    @Option(names = "-e", paramLabel = "QUERY", description = "Run one statement, print its table.")
    String query;

    @Override
    public Integer call() throws Exception {
        Configuration o = ReceiptsCli.options(jobOptions());
        TableEnvironment sql =
                ReceiptCatalog.open(
                        HBaseTables.address(o),
                        o.get(CommonOptions.HBASE_NAMESPACE),
                        new Configuration());
        if (query != null) {
            return execute(sql, strip(query)) ? 0 : 1;
        }
        return interactive(sql);
    }

    private static int interactive(TableEnvironment sql) throws Exception {
        boolean console = System.console() != null;
        System.out.println(
                "Flink SQL on the receipts tables (catalog pushline, database receipts):"
                        + " metrics_minute, metrics_daily, lifecycle, views drops_minute and"
                        + " fails_minute. End statements with ';', quit with 'quit;'. Examples:"
                        + " jobs/receipts/README.md");
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder statement = new StringBuilder();
        int failures = 0;
        while (true) {
            if (console) {
                System.out.print(statement.length() == 0 ? "pushline> " : "       -> ");
                System.out.flush();
            }
            String line = in.readLine();
            if (line == null) {
                break;
            }
            statement.append(line).append('\n');
            if (!line.trim().endsWith(";")) {
                continue;
            }
            String s = strip(statement.toString());
            statement.setLength(0);
            if (s.equalsIgnoreCase("quit") || s.equalsIgnoreCase("exit")) {
                break;
            }
            if (!s.isEmpty() && !execute(sql, s)) {
                failures++;
            }
        }
        return failures == 0 ? 0 : 1;
    }

    static boolean execute(TableEnvironment sql, String statement) {
        return ReceiptSql.execute(sql, statement);
    }

    private static String strip(String s) {
        s = s.trim();
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).trim();
        }
        return s;
    }
}
