package io.pushline.schema.dispatch;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.Decision;
import io.pushline.schema.ParsedRecord;
import io.pushline.schema.SendRecord;
import io.pushline.schema.inbox.InboxChange;
import io.pushline.schema.inbox.InboxOp;
import io.pushline.schema.pacing.PacingStatus;
import io.pushline.schema.registry.RegistryChange;
import io.pushline.schema.reminders.ReminderEvent;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.util.OutputTag;

/** Side outputs of the dispatch operators, shared so producers and consumers agree. */
public final class DispatchTags {
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));
    public static final OutputTag<Decision> DECISIONS =
            new OutputTag<>("decisions", TypeInformation.of(Decision.class));
    public static final OutputTag<SendRecord> SENDS =
            new OutputTag<>("sends", TypeInformation.of(SendRecord.class));
    public static final OutputTag<UidKeyed> UID_KEYED =
            new OutputTag<>("uid-keyed", TypeInformation.of(UidKeyed.class));

    /** Requests whose target is an audience expression, on their way to the expander. */
    public static final OutputTag<ParsedRecord> CAMPAIGNS =
            new OutputTag<>("campaigns", TypeInformation.of(ParsedRecord.class));

    /** Requests with an {@code at} after their time, on their way to the scheduler. */
    public static final OutputTag<ParsedRecord> SCHEDULED =
            new OutputTag<>("scheduled", TypeInformation.of(ParsedRecord.class));

    public static final OutputTag<RegistryChange> REGISTRY_CHANGES =
            new OutputTag<>("registry-changes", TypeInformation.of(RegistryChange.class));

    /** Each vendor's backlog, every second, from the pacer to push.pacing. */
    public static final OutputTag<PacingStatus> PACING_STATUS =
            new OutputTag<>("pacing-status", TypeInformation.of(PacingStatus.class));

    /** Reminder task and subscription events, on their way to the reminders. */
    public static final OutputTag<ReminderEvent> REMINDERS =
            new OutputTag<>("reminders", TypeInformation.of(ReminderEvent.class));

    /** The devices of a long device list, expanded in chunks, on their way to the registry. */
    public static final OutputTag<RegistryInput> LISTED_DEVICES =
            new OutputTag<>("listed-devices", TypeInformation.of(RegistryInput.class));

    private DispatchTags() {}

    /** Changes to inboxes: messages of requests with {@code inbox: true}, and reads. */
    public static final OutputTag<InboxOp> INBOX =
            new OutputTag<>("inbox", TypeInformation.of(InboxOp.class));

    /** Uids whose inbox row the inbox writer wrote, on their way to {@code inbox.changes}. */
    public static final OutputTag<InboxChange> INBOX_CHANGES =
            new OutputTag<>("inbox-changes", TypeInformation.of(InboxChange.class));
}
