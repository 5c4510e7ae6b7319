package io.pushline.schedule;

import io.pushline.schema.PushRequest;
import io.pushline.schema.recall.UserRecall;
import io.pushline.schema.schedule.ScheduleStateDescriptors;
import io.pushline.schema.sendtime.SendTime;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Joins a user's send time and recall (both keyed by uid) and plans the user's slots at the end of
 * the key (a timer at the end of time fires when a BATCH job is done with the key). A user with
 * recalled items but no send time (no activity in the look-back) gets no personal pushes.
 */
public class ScheduleFunction
        extends KeyedCoProcessFunction<String, SendTime, UserRecall, PushRequest> {
    private final SlotPlanner planner;
    private transient ValueState<SendTime> times;
    private transient ValueState<UserRecall> recall;
    private transient Counter users;
    private transient Counter slots;
    private transient Counter withoutSendTime;

    public ScheduleFunction(SlotPlanner planner) {
        this.planner = planner;
    }

    @Override
    public void open(OpenContext openContext) {
        times = getRuntimeContext().getState(ScheduleStateDescriptors.sendTime());
        recall = getRuntimeContext().getState(ScheduleStateDescriptors.recall());
        users = getRuntimeContext().getMetricGroup().counter("usersScheduled");
        slots = getRuntimeContext().getMetricGroup().counter("slots");
        withoutSendTime = getRuntimeContext().getMetricGroup().counter("usersWithoutSendTime");
    }

    @Override
    public void processElement1(SendTime s, Context ctx, Collector<PushRequest> out)
            throws Exception {
        times.update(s);
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
    }

    @Override
    public void processElement2(UserRecall r, Context ctx, Collector<PushRequest> out)
            throws Exception {
        recall.update(r);
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
    }

    @Override
    public void onTimer(long ts, OnTimerContext ctx, Collector<PushRequest> out) throws Exception {
        SendTime s = times.value();
        UserRecall r = recall.value();
        times.clear();
        recall.clear();
        if (r == null) {
            return;
        }
        if (s == null) {
            withoutSendTime.inc();
            return;
        }
        users.inc();
        for (PushRequest p : planner.plan(s, r)) {
            slots.inc();
            out.collect(p);
        }
    }
}
