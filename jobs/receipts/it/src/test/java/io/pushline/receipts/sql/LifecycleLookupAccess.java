package io.pushline.receipts.sql;

import java.util.Collection;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

/** Runs the package-private {@link LifecycleLookup} as a lookup join would, for tests. */
public final class LifecycleLookupAccess {
    private final LifecycleLookup lookup;

    public LifecycleLookupAccess(String quorum, String namespace) throws Exception {
        lookup = new LifecycleLookup(quorum, namespace, 0, 1);
        lookup.open(null);
    }

    /** "msgId/deviceId vendor status fail_code" of the row found, or null. */
    public String find(String msgId, String deviceId) throws Exception {
        Collection<RowData> rows =
                lookup.lookup(
                        GenericRowData.of(
                                StringData.fromString(msgId), StringData.fromString(deviceId)));
        if (rows.isEmpty()) {
            return null;
        }
        RowData r = rows.iterator().next();
        return r.getString(0)
                + "/"
                + r.getString(1)
                + " "
                + r.getString(3)
                + " "
                + r.getString(8)
                + " "
                + r.getString(14);
    }

    public void close() throws Exception {
        lookup.close();
    }
}
