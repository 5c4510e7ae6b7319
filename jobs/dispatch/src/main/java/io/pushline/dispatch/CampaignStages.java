package io.pushline.dispatch;

import io.pushline.schema.Decision;
import io.pushline.schema.dispatch.AudienceChunk;
import io.pushline.schema.dispatch.DispatchTags;
import io.pushline.schema.dispatch.RegistryInput;
import io.pushline.schema.dispatch.UidKeyed;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.reminders.ReminderLine;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Campaigns (requests to an audience expression or a saved audience): expanded in chunks of dense
 * ids at a rate the pacers' reports adapt ({@link CampaignExpander}), with the fired reminders'
 * chunks ({@link ReminderStages}) joining them, then resolved to uids for the uid index.
 *
 * @param uids every campaign's and reminder's uids, for the uid index
 * @param devices the devices of long device lists, for the registry
 * @param reminderPulled see {@link ReminderStages}; null without reminders
 * @param reminderRejected see {@link ReminderStages}; null without reminders
 */
record CampaignStages(
        DataStream<UidKeyed> uids,
        DataStream<RegistryInput> devices,
        DataStream<Decision> reminderPulled,
        DataStream<ReminderLine> reminderRejected) {

    /**
     * @param reminders null: no reminders
     */
    static CampaignStages wire(
            RequestStages requests,
            AudienceSettings audience,
            PacingSettings pacing,
            ReminderSettings reminders,
            DeadLetters deadLetters,
            int maxParallelism) {
        DataStream<PacingStatus> backlogs = requests.backlogs();
        SingleOutputStreamOperator<AudienceChunk> chunks =
                requests.routed(DispatchTags.CAMPAIGNS)
                        .connect(backlogs)
                        .transform(
                                "Expand campaigns",
                                TypeInformation.of(AudienceChunk.class),
                                new CampaignExpander(
                                        audience.audiences,
                                        audience.chunkSize,
                                        audience.maxIdsPerSecond,
                                        pacing == null ? 0 : pacing.maxBacklog,
                                        audience.holdWatermark,
                                        audience.targetDelayMs))
                        .uid("campaign-expander")
                        .setParallelism(1);
        deadLetters.of(chunks);
        DataStream<AudienceChunk> allChunks = chunks;
        ReminderStages fired = null;
        if (reminders != null) {
            fired =
                    ReminderStages.wire(
                            requests,
                            backlogs,
                            audience.backlogTargetMs(pacing),
                            reminders,
                            audience,
                            deadLetters,
                            maxParallelism);
            allChunks = chunks.union(fired.pushes());
        }
        SingleOutputStreamOperator<UidKeyed> uids =
                allChunks
                        .rebalance()
                        .transform(
                                "Resolve audience ids",
                                TypeInformation.of(UidKeyed.class),
                                new ChunkResolver(audience.audiences))
                        .uid("audience-resolver");
        return new CampaignStages(
                uids,
                uids.getSideOutput(DispatchTags.LISTED_DEVICES),
                fired == null ? null : fired.pulled(),
                fired == null ? null : fired.rejected());
    }
}
