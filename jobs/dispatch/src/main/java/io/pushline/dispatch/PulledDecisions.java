package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.schema.Decision;
import io.pushline.schema.DropReason;
import io.pushline.schema.PushRequest;
import io.pushline.schema.reminders.ReminderChunk;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A {@code pulled} decision for each subscriber whose app pulled a fired reminder task, its uid
 * read from the dictionary (full parallelism, chunks spread round robin), so receipts and reports
 * count pulls like any other outcome.
 */
class PulledDecisions extends ProcessFunction<ReminderChunk, Decision> {
    private static final long serialVersionUID = 1L;

    private final String msgType;
    private final int level;
    private final Audiences.Factory dictionary;
    private transient Audiences audiences;

    PulledDecisions(String msgType, int level, Audiences.Factory dictionary) {
        this.msgType = msgType;
        this.level = level;
        this.dictionary = dictionary;
    }

    @Override
    public void open(OpenContext ctx) throws Exception {
        audiences = dictionary.open();
    }

    @Override
    public void processElement(ReminderChunk c, Context ctx, Collector<Decision> out)
            throws Exception {
        PushRequest p = ReminderPushes.request(c, msgType, level);
        for (String uid : audiences.uids(c.ids)) {
            if (uid != null) {
                out.collect(Decision.drop(p, uid, null, DropReason.PULLED));
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
