package io.pushline.dispatch;

import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.reminders.ReminderChunk;
import io.pushline.schema.reminders.ReminderLine;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Turns the reminder pacer's chunks into campaign chunks: the same ids, a push request with the
 * task's title and body, msgType and level of {@link ReminderSettings}, and msgId {@code
 * reminder-<taskId>} (so the gate's duplicate memory also keeps a task from reaching a device
 * twice). Pulled subscribers are not pushed: they are counted.
 */
class ReminderPushes extends ProcessFunction<ReminderChunk, AudienceChunk> {
    private static final long serialVersionUID = 1L;

    private final String msgType;
    private final int level;
    private transient Counter pulled;

    ReminderPushes(String msgType, int level) {
        this.msgType = msgType;
        this.level = level;
    }

    @Override
    public void open(OpenContext ctx) {
        pulled = getRuntimeContext().getMetricGroup().counter("remindersPulled");
    }

    static String msgId(String taskId) {
        return "reminder-" + taskId;
    }

    @Override
    public void processElement(ReminderChunk c, Context ctx, Collector<AudienceChunk> out) {
        if (!ReminderLine.PUSH.equals(c.action)) {
            pulled.inc(c.ids.length);
            return;
        }
        PushRequest p = new PushRequest();
        p.ts = c.at;
        p.msgId = msgId(c.taskId);
        p.msgType = msgType;
        p.level = level;
        p.title = c.title;
        p.body = c.body;
        out.collect(AudienceChunk.of(p, c.ids, 0));
    }
}
