package io.pushline.schedule;

import io.pushline.common.HBaseTables;
import io.pushline.schema.PushRequest;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Table;

/**
 * A slot minute in, the personal push requests of it and the next {@code step - 1} minutes from
 * {@code push_schedule} out.
 */
public class LoadMinute extends RichFlatMapFunction<Long, PushRequest> {
    private final String quorum;
    private final String namespace;
    private final int step;
    private final long until;
    private transient Connection connection;
    private transient Table table;
    private transient Counter slots;
    private transient volatile long lastMinute;

    /**
     * @param step minutes per input value
     * @param until the first minute never to load (the clock's end)
     */
    public LoadMinute(String quorum, String namespace, int step, long until) {
        this.quorum = quorum;
        this.namespace = namespace;
        this.step = step;
        this.until = until;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        connection = ConnectionFactory.createConnection(HBaseTables.clientConf(quorum));
        table = connection.getTable(ScheduleTable.table(namespace));
        slots = getRuntimeContext().getMetricGroup().counter("slotsLoaded");
        // how far ahead of its slots the feed is, in ms (negative: behind, loading late)
        getRuntimeContext()
                .getMetricGroup()
                .<Long, org.apache.flink.metrics.Gauge<Long>>gauge(
                        "aheadMs",
                        () ->
                                lastMinute == 0
                                        ? 0L
                                        : lastMinute * 60_000L - System.currentTimeMillis());
    }

    @Override
    public void flatMap(Long minute, Collector<PushRequest> out) throws Exception {
        for (PushRequest p :
                ScheduleTable.minutes(table, minute, (int) Math.min(step, until - minute))) {
            slots.inc();
            out.collect(p);
        }
        lastMinute = minute + step - 1;
    }

    @Override
    public void close() throws Exception {
        if (table != null) {
            table.close();
        }
        if (connection != null) {
            connection.close();
        }
    }
}
