package io.pushline.reminders;

import io.pushline.audience.IdDictionary;
import io.pushline.common.HBaseTables;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Dense ids for subscribers' uids, assigned on first sight: the uid dictionary that campaigns use,
 * so that a fired task's bitmap goes through the campaign path as it is.
 */
public interface UidIds extends AutoCloseable {
    /** The id of each of {@code uids}, assigning new ones in one batch. */
    Map<String, Integer> idsOf(List<String> uids) throws IOException;

    @Override
    void close() throws IOException;

    /** Opens the dictionary on the task manager. */
    interface Factory extends Serializable {
        UidIds open() throws IOException;
    }

    /** The HBase dictionary: each subtask opens its own connection to {@code quorum}. */
    static Factory hbase(String quorum, String namespace, int cacheSize) {
        return () -> {
            Connection c = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
            IdDictionary dictionary = new IdDictionary(c, namespace, cacheSize);
            return new UidIds() {
                @Override
                public Map<String, Integer> idsOf(List<String> uids) throws IOException {
                    return dictionary.assignAll(uids);
                }

                @Override
                public void close() throws IOException {
                    try {
                        dictionary.close();
                    } finally {
                        c.close();
                    }
                }
            };
        };
    }
}
