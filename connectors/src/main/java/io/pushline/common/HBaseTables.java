package io.pushline.common;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.configuration.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Pushline's HBase tables. {@code devices}: row deviceId, family {@code d} with uid, vendor, token,
 * tz, enabled, boundTs, updatedTs. {@code devices_by_uid}: row {@code uid 0x00 deviceId}, family
 * {@code d} with vendor, so a prefix scan on {@code uid 0x00} lists a uid's devices. {@code
 * uid_dict}: the uid ↔ dense id dictionary of audiences; {@code segments}: audience bitmaps; {@code
 * push_schedule}: tomorrow's personal slots (7-day TTL). The capabilities that own a table keep its
 * row layout (audiences, schedule, receipts); this class only names the tables every job creates.
 */
public final class HBaseTables {
    public static final byte[] FAMILY = Bytes.toBytes("d");
    public static final String DEVICES = "devices";
    public static final String DEVICES_BY_UID = "devices_by_uid";

    /** Row uid; family {@code d}: first, last (HH:MM, local), date (the run's), predictor. */
    public static final String USER_SENDTIME = "user_sendtime";

    /** Row {@code uid 0x00 date}; family {@code d}: items (the recalled items as a JSON array). */
    public static final String USER_RECALL = "user_recall";

    /** The audiences' uid ↔ dense id dictionary (rows {@code u:<uid>}, {@code i:<id>}). */
    public static final String UID_DICT = "uid_dict";

    /** Audience bitmaps: chunk rows per version and a meta row per segment. */
    public static final String SEGMENTS = "segments";

    /** Personal slots: row {@code salt minute msgId}. */
    public static final String PUSH_SCHEDULE = "push_schedule";

    /**
     * Reminders as app backends read them (the pull endpoint): rows {@code t:<taskId>} (fireAt,
     * zone, title, body, status) and {@code u:<uid>} (one column per subscribed taskId).
     */
    public static final String REMINDERS = "reminders";

    /**
     * Inboxes (pushline-inbox): rows {@code u:<uid>} (sent and read bitmaps), {@code m:<id>} (a
     * message), {@code b:<id>} and {@code a:<id><chunk>} (a broadcast and its audience bitmap).
     */
    public static final String INBOX = "inbox";

    /** The inbox's msgId ↔ dense int id dictionary (the layout of {@link #UID_DICT}). */
    public static final String INBOX_IDS = "inbox_ids";

    /**
     * Saved audiences (the console): row {@code a:<name>} with one column per version ({@code
     * v<version>}) and one per campaign that named it ({@code c:<msgId>}).
     */
    public static final String SAVED_AUDIENCES = "saved_audiences";

    /** A day's slots are useless a week later. */
    public static final int PUSH_SCHEDULE_TTL_SECONDS = 7 * 86_400;

    private HBaseTables() {}

    public static TableName devices(String namespace) {
        return TableName.valueOf(namespace, DEVICES);
    }

    public static TableName reminders(String namespace) {
        return TableName.valueOf(namespace, REMINDERS);
    }

    /** The row of a task in {@link #REMINDERS}. */
    public static byte[] reminderTaskRow(String taskId) {
        return Bytes.toBytes("t:" + taskId);
    }

    /** The row of a uid's subscriptions in {@link #REMINDERS}. */
    public static byte[] reminderUidRow(String uid) {
        return Bytes.toBytes("u:" + uid);
    }

    public static TableName devicesByUid(String namespace) {
        return TableName.valueOf(namespace, DEVICES_BY_UID);
    }

    public static TableName userSendTime(String namespace) {
        return TableName.valueOf(namespace, USER_SENDTIME);
    }

    public static TableName userRecall(String namespace) {
        return TableName.valueOf(namespace, USER_RECALL);
    }

    /** A {@code user_recall} row: {@code uid 0x00 date}. */
    public static byte[] recallRow(String uid, String date) {
        return Bytes.add(Bytes.toBytes(uid), new byte[] {0}, Bytes.toBytes(date));
    }

    public static byte[] uidIndexRow(String uid, String deviceId) {
        return Bytes.add(Bytes.toBytes(uid), new byte[] {0}, Bytes.toBytes(deviceId));
    }

    /**
     * The HBase address of a job's options: {@code hbase.zookeeper.quorum}, followed by the {@code
     * hbase.properties.*} client properties, if any ({@code quorum;key=value;...}, each part
     * URL-encoded), so that the one string that jobs and sinks already carry to their task managers
     * carries the authentication settings too. Null without a quorum.
     */
    public static String address(Configuration options) {
        String quorum = options.get(CommonOptions.HBASE_ZK_QUORUM);
        if (quorum == null || quorum.isBlank()) {
            return null;
        }
        StringBuilder b = new StringBuilder(quorum.trim());
        new TreeMap<>(options.toMap())
                .forEach(
                        (k, v) -> {
                            if (k.startsWith(CommonOptions.HBASE_PROPERTIES_PREFIX)) {
                                b.append(';')
                                        .append(
                                                encode(
                                                        k.substring(
                                                                CommonOptions
                                                                        .HBASE_PROPERTIES_PREFIX
                                                                        .length())))
                                        .append('=')
                                        .append(encode(v));
                            }
                        });
        return b.toString();
    }

    /** {@link #address} of options that must name a quorum (the option named otherwise). */
    public static String requireAddress(Configuration options) {
        OptionsParser.require(options, CommonOptions.HBASE_ZK_QUORUM);
        return address(options);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /**
     * Client configuration for an {@link #address} (or a bare quorum, {@code
     * host:port[,host:port...]}).
     */
    public static org.apache.hadoop.conf.Configuration clientConf(String address) {
        org.apache.hadoop.conf.Configuration c = HBaseConfiguration.create();
        String[] parts = address.split(";");
        String quorum = parts[0];
        c.set("hbase.zookeeper.quorum", quorum);
        // Fail within a minute rather than retrying for a quarter of an hour.
        c.setInt("hbase.client.retries.number", 10);
        c.setInt("zookeeper.recovery.retry", 3);
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                c.set(
                        URLDecoder.decode(parts[i].substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(parts[i].substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return c;
    }

    /**
     * Every table here is read mostly by row (a uid's id, a device, an inbox, a task), with small
     * cells. Without an encoding a get walks its 64 KB block cell by cell from the block's start to
     * its row (about a thousand comparisons for the dictionary's rows): a profile of a million
     * subscriptions resolving their ids put a quarter of the whole process in that walk. {@code
     * ROW_INDEX_V1} stores an index of the rows at the end of each block, so the get finds its row
     * by binary search; scans read the cells as before.
     */
    static final DataBlockEncoding ENCODING = DataBlockEncoding.ROW_INDEX_V1;

    private static ColumnFamilyDescriptor family(TableName t) {
        ColumnFamilyDescriptorBuilder b =
                ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setDataBlockEncoding(ENCODING);
        if (t.getQualifierAsString().equals(PUSH_SCHEDULE)) {
            b.setTimeToLive(PUSH_SCHEDULE_TTL_SECONDS);
        }
        return b.build();
    }

    /**
     * Creates the namespace and every table Pushline uses in it, those missing. The tables are
     * created at once (HBase's master runs the procedures side by side): one after the other, each
     * waiting for its region to open, they took about eight seconds on a mini cluster.
     */
    public static void ensure(Connection connection, String namespace) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            ensureNamespace(admin, namespace);
            List<TableDescriptor> tables = new ArrayList<>();
            for (TableName t :
                    new TableName[] {
                        devices(namespace),
                        devicesByUid(namespace),
                        TableName.valueOf(namespace, UID_DICT),
                        TableName.valueOf(namespace, SEGMENTS),
                        userSendTime(namespace),
                        userRecall(namespace),
                        TableName.valueOf(namespace, PUSH_SCHEDULE),
                        reminders(namespace),
                        TableName.valueOf(namespace, INBOX),
                        TableName.valueOf(namespace, INBOX_IDS),
                        TableName.valueOf(namespace, SAVED_AUDIENCES)
                    }) {
                tables.add(TableDescriptorBuilder.newBuilder(t).setColumnFamily(family(t)).build());
            }
            createMissing(admin, tables);
        }
    }

    /** Creates {@code namespace} unless it exists (or another process creates it meanwhile). */
    public static void ensureNamespace(Admin admin, String namespace) throws IOException {
        try {
            admin.getNamespaceDescriptor(namespace);
        } catch (NamespaceNotFoundException e) {
            try {
                admin.createNamespace(NamespaceDescriptor.create(namespace).build());
            } catch (NamespaceExistException raced) {
                // another process (a job starting, the server) created it meanwhile
            }
        }
    }

    /**
     * Creates those of {@code tables} that do not exist, all at once (HBase's master runs the
     * procedures side by side), and waits for them. A table another process creates meanwhile is
     * what was wanted.
     */
    public static void createMissing(Admin admin, List<TableDescriptor> tables) throws IOException {
        Map<TableName, Future<Void>> creating = new LinkedHashMap<>();
        for (TableDescriptor t : tables) {
            if (!admin.tableExists(t.getTableName())) {
                try {
                    creating.put(t.getTableName(), admin.createTableAsync(t));
                } catch (TableExistsException raced) {
                    // created meanwhile by another process: what we wanted
                }
            }
        }
        for (Map.Entry<TableName, Future<Void>> c : creating.entrySet()) {
            awaitCreated(c.getKey(), c.getValue());
        }
    }

    private static void awaitCreated(TableName table, Future<Void> created) throws IOException {
        try {
            created.get(CREATE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TableExistsException)) {
                throw new IOException("could not create HBase table " + table, e.getCause());
            }
            // created meanwhile by another process: what we wanted
        } catch (TimeoutException e) {
            throw new IOException(
                    "HBase did not create table "
                            + table
                            + " within "
                            + CREATE_TIMEOUT_SECONDS
                            + " s",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted creating " + table);
        }
    }

    private static final long CREATE_TIMEOUT_SECONDS = 120;
}
