package io.pushline.sendtime;

import io.pushline.schema.sendtime.ActivityEvent;
import io.pushline.schema.sendtime.SendTime;
import io.pushline.schema.sendtime.UserDays;
import java.time.LocalDate;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.Collector;

/**
 * The nightly send-time job (BATCH, send-time.md): activity events in, each user's predicted first
 * and last push time of the run's date out.
 *
 * <pre>
 * activity ─ place on local day and minute ─ merge per uid (earliest, latest per day) ─ predict
 * </pre>
 *
 * Only the looked-at days travel: one small array pair per user after the merge, never the events.
 */
public final class SendTimeJob {
    public static final String NAME = "pushline-sendtime";

    private SendTimeJob() {}

    /** Which predictor turns a user's days into times. */
    public enum Predictor {
        /** send-time.md's window rules (the contract; the default). */
        RULES,
        /** {@link HistogramPredictor}: decay-weighted median of the daily first and last minute. */
        HISTOGRAM
    }

    public static DataStream<SendTime> build(
            DataStream<ActivityEvent> activity, SendTimeRules rules, LocalDate date) {
        return build(activity, rules, date, Predictor.RULES);
    }

    public static DataStream<SendTime> build(
            DataStream<ActivityEvent> activity,
            SendTimeRules rules,
            LocalDate date,
            Predictor predictor) {
        return activity.flatMap(new Place(rules, date))
                .uid("place-activity")
                .name("Place on local day and minute")
                .keyBy(u -> u.uid)
                .reduce(UserDays::merge)
                .uid("merge-days")
                .name("Merge per uid")
                .map(new Predict(rules, predictor))
                .uid("predict-send-time")
                .name("Predict first and last");
    }

    /** An event on its looked-at day, or nothing when its local date is not one of them. */
    static final class Place implements FlatMapFunction<ActivityEvent, UserDays> {
        private static final long serialVersionUID = 1L;
        private final SendTimeRules rules;
        private final LocalDate date;

        Place(SendTimeRules rules, LocalDate date) {
            this.rules = rules;
            this.date = date;
        }

        @Override
        public void flatMap(ActivityEvent e, Collector<UserDays> out) {
            UserDays u = SendTimePredictor.place(e, rules, date);
            if (u != null) {
                out.collect(u);
            }
        }
    }

    static final class Predict implements MapFunction<UserDays, SendTime> {
        private static final long serialVersionUID = 1L;
        private final SendTimeRules rules;
        private final Predictor predictor;

        Predict(SendTimeRules rules, Predictor predictor) {
            this.rules = rules;
            this.predictor = predictor;
        }

        @Override
        public SendTime map(UserDays u) {
            return predictor == Predictor.HISTOGRAM
                    ? HistogramPredictor.predict(u)
                    : SendTimePredictor.predict(u, rules);
        }
    }
}
