package io.pushline.cluster;

import java.util.Locale;

/** The processes of {@code ./pushline cluster}, in the order {@code up} starts them. */
public enum Role {
    /** s3proxy, a real S3 API over local files: only with {@code up --s3}. */
    S3PROXY("s3proxy"),
    /** The JobManager's high-availability ZooKeeper: only with {@code up --s3}. */
    ZOOKEEPER("zookeeper"),
    KAFKA("kafka"),
    HBASE("hbase"),
    JOBMANAGER("jobmanager"),
    TASKMANAGER_1("taskmanager-1"),
    TASKMANAGER_2("taskmanager-2");

    private final String id;

    Role(String id) {
        this.id = id;
    }

    /** The name in pid and log files and on the command line. */
    public String id() {
        return id;
    }

    /** Whether only a cluster started with {@code up --s3} runs this process. */
    public boolean s3Only() {
        return this == S3PROXY || this == ZOOKEEPER;
    }

    public boolean isTaskManager() {
        return this == TASKMANAGER_1 || this == TASKMANAGER_2;
    }

    /** The TaskManager's resource id, as the JobManager and the web UI show it. */
    public String resourceId() {
        return id.replace("taskmanager-", "tm-");
    }

    public static Role parse(String s) {
        for (Role r : values()) {
            if (r.id.equals(s.toLowerCase(Locale.ROOT))) {
                return r;
            }
        }
        throw new IllegalArgumentException(
                "unknown process '"
                        + s
                        + "': one of s3proxy, zookeeper (with up --s3), kafka, hbase, jobmanager,"
                        + " taskmanager-1, taskmanager-2");
    }
}
