package io.pushline.dispatch;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Json;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.PushRequest;
import io.pushline.schema.dispatch.DeviceKeyed;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.UidKeyed;
import java.util.LinkedHashSet;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Routes parsed input: device events and device-targeted requests to the registry (main output),
 * uid-targeted requests to the uid index ({@link DispatchTags#UID_KEYED}), audience-targeted ones
 * to the campaign expander ({@link DispatchTags#CAMPAIGNS}), bad records to {@link
 * DispatchTags#DEAD_LETTERS}. A request's target list is de-duplicated here, so each listed uid or
 * device is decided once however often it is listed.
 */
public class SplitInput extends ProcessFunction<ParsedRecord, DeviceKeyed> {
    static final String NO_SEGMENT_STORE =
            "audience targets need the segment store: start the job with"
                    + " hbase.zookeeper.quorum set";

    private final boolean campaigns;
    private transient Counter deadLetters;

    /**
     * @param campaigns whether audience targets can be expanded ({@link DispatchTags#CAMPAIGNS});
     *     without a segment store they are dead letters
     */
    public SplitInput(boolean campaigns) {
        this.campaigns = campaigns;
    }

    @Override
    public void open(OpenContext openContext) {
        deadLetters = getRuntimeContext().getMetricGroup().counter("deadLetters");
    }

    @Override
    public void processElement(ParsedRecord in, Context ctx, Collector<DeviceKeyed> out) {
        if (in.dead != null) {
            deadLetters.inc();
            ctx.output(DispatchTags.DEAD_LETTERS, in.dead);
        } else if (in.event != null) {
            out.collect(DeviceKeyed.of(in.event));
        } else {
            route(in, ctx, out);
        }
    }

    private void route(ParsedRecord in, Context ctx, Collector<DeviceKeyed> out) {
        PushRequest p = in.request;
        if (p.target.uids != null) {
            PushRequest each = p.withoutTarget();
            for (String uid : new LinkedHashSet<>(p.target.uids)) {
                ctx.output(DispatchTags.UID_KEYED, UidKeyed.request(uid, each));
            }
        } else if (p.target.devices != null) {
            PushRequest each = p.withoutTarget();
            for (String deviceId : new LinkedHashSet<>(p.target.devices)) {
                out.collect(DeviceKeyed.of(deviceId, each));
            }
        } else if (campaigns) {
            ctx.output(DispatchTags.CAMPAIGNS, in);
        } else {
            deadLetters.inc();
            ctx.output(
                    DispatchTags.DEAD_LETTERS,
                    DeadLetter.of(in.source, in.position, NO_SEGMENT_STORE, Json.write(p)));
        }
    }
}
