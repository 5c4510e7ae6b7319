package io.pushline.schema.schedule;

import io.pushline.schema.recall.UserRecall;
import io.pushline.schema.sendtime.SendTime;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * State of the nightly schedule step (BATCH, keyed by uid): the user's send time and recall until
 * the end of the key. Lives for one key of one batch run, so no TTL.
 */
public final class ScheduleStateDescriptors {
    private ScheduleStateDescriptors() {}

    public static ValueStateDescriptor<SendTime> sendTime() {
        return new ValueStateDescriptor<>("schedule-sendtime", TypeInformation.of(SendTime.class));
    }

    public static ValueStateDescriptor<UserRecall> recall() {
        return new ValueStateDescriptor<>("schedule-recall", TypeInformation.of(UserRecall.class));
    }
}
