package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.schema.Decision;
import io.pushline.schema.DropReason;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.DispatchTags;
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
 * twice). Subscribers who pulled the task are not pushed: each gets a {@code pulled} decision on
 * {@link DispatchTags#DECISIONS} (its uid read from the dictionary), so receipts and reports count
 * them.
 */
class ReminderPushes extends ProcessFunction<ReminderChunk, AudienceChunk> {
    private static final long serialVersionUID = 1L;

    private final String msgType;
    private final int level;
    private final Audiences.Factory dictionary;
    private transient Audiences audiences;
    private transient Counter pulled;

    ReminderPushes(String msgType, int level, Audiences.Factory dictionary) {
        this.msgType = msgType;
        this.level = level;
        this.dictionary = dictionary;
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        pulled = getRuntimeContext().getMetricGroup().counter("remindersPulled");
        audiences = dictionary.open();
    }

    static String msgId(String taskId) {
        return "reminder-" + taskId;
    }

    @Override
    public void processElement(ReminderChunk c, Context ctx, Collector<AudienceChunk> out)
            throws Exception {
        PushRequest p = new PushRequest();
        p.ts = c.at;
        p.msgId = msgId(c.taskId);
        p.msgType = msgType;
        p.level = level;
        p.title = c.title;
        p.body = c.body;
        if (ReminderLine.PUSH.equals(c.action)) {
            out.collect(AudienceChunk.of(p, c.ids, 0));
            return;
        }
        pulled.inc(c.ids.length);
        for (String uid : audiences.uids(c.ids)) {
            if (uid != null) {
                ctx.output(DispatchTags.DECISIONS, Decision.drop(p, uid, null, DropReason.PULLED));
            }
        }
    }

    @Override
    public void close() throws Exception {
        if (audiences != null) {
            audiences.close();
        }
    }
}
