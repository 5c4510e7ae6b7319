package io.pushline.dispatch;

import io.pushline.schema.SendRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Takes the reminder sends (msgType of {@link ReminderSettings} and a msgId from {@link
 * ReminderPushes}) out of the gate's sends, to {@link #TAG}, for the reminder meter; every other
 * send goes on unchanged.
 */
class ReminderSends extends ProcessFunction<SendRecord, SendRecord> {
    private static final long serialVersionUID = 1L;

    static final OutputTag<SendRecord> TAG =
            new OutputTag<>("reminder-sends", TypeInformation.of(SendRecord.class));

    private final String msgType;

    ReminderSends(String msgType) {
        this.msgType = msgType;
    }

    static boolean isReminder(SendRecord s, String msgType) {
        return msgType.equals(s.msgType)
                && s.msgId != null
                && s.msgId.startsWith(ReminderPushes.MSG_ID_PREFIX);
    }

    @Override
    public void processElement(SendRecord s, Context ctx, Collector<SendRecord> out) {
        if (isReminder(s, msgType)) {
            ctx.output(TAG, s);
        } else {
            out.collect(s);
        }
    }
}
