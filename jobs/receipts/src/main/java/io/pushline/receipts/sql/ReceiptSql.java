package io.pushline.receipts.sql;

import org.apache.flink.table.api.TableEnvironment;

/** What {@code ./pushline sql} does with one statement: run it, print its table or the error. */
public final class ReceiptSql {
    private ReceiptSql() {}

    /**
     * Runs {@code statement} and prints its result as a table to standard output; an error goes to
     * standard error (with its root cause) and returns false instead of throwing.
     */
    public static boolean execute(TableEnvironment sql, String statement) {
        try {
            sql.executeSql(statement).print();
            return true;
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            System.err.println("pushline sql: " + e.getMessage());
            if (root != e) {
                System.err.println("  caused by: " + root);
            }
            return false;
        }
    }
}
