package io.pushline.dispatch;

import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.reminders.ReminderChunk;
import io.pushline.schema.reminders.ReminderLine;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Turns the reminder pacer's chunks into campaign chunks: the same ids, a push request with the
 * task's title and body, msgType and level of {@link ReminderSettings}, and msgId {@code
 * reminder-<taskId>} (so the gate's duplicate memory also keeps a task from reaching a device
 * twice). Chunks of subscribers who pulled the task go to {@link #PULLED}, for {@link
 * PulledDecisions}: their uids are looked up off the pacer's thread, which must not stall.
 */
class ReminderPushes extends ProcessFunction<ReminderChunk, AudienceChunk> {
    private static final long serialVersionUID = 1L;

    /** Chunks of subscribers who pulled their task: not pushed. */
    static final OutputTag<ReminderChunk> PULLED =
            new OutputTag<>("reminder-pulled-chunks", TypeInformation.of(ReminderChunk.class));

    /** Every reminder push's msgId: this and the taskId. */
    static final String MSG_ID_PREFIX = "reminder-";

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

    /** The push request of a reminder chunk: decided at its send time. */
    static PushRequest request(ReminderChunk c, String msgType, int level) {
        PushRequest p = new PushRequest();
        p.ts = c.at;
        p.msgId = MSG_ID_PREFIX + c.taskId;
        p.msgType = msgType;
        p.level = level;
        p.title = c.title;
        p.body = c.body;
        return p;
    }

    @Override
    public void processElement(ReminderChunk c, Context ctx, Collector<AudienceChunk> out) {
        if (ReminderLine.PUSH.equals(c.action)) {
            out.collect(AudienceChunk.of(request(c, msgType, level), c.ids, 0));
        } else {
            pulled.inc(c.ids.length);
            ctx.output(PULLED, c);
        }
    }
}
