package io.pushline.schema.dispatch;

import io.pushline.schema.ParsedRecord;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * State of the dispatch job's scheduler, keyed by msgId: the requests of that msgId waiting for
 * their {@code at}. No TTL: each entry is removed by the event-time timer that releases it, so
 * nothing is left to collect, and a TTL shorter than a request's wait would lose it.
 */
public final class ScheduleState {
    private ScheduleState() {}

    public static ListStateDescriptor<ParsedRecord> waiting() {
        return new ListStateDescriptor<>(
                "scheduled-requests", TypeInformation.of(ParsedRecord.class));
    }

    /**
     * Operator state: requests already due that wait for the release rate, in release order.
     * Rescaled round-robin like any list of independent entries.
     */
    public static ListStateDescriptor<ParsedRecord> deferred() {
        return new ListStateDescriptor<>(
                "scheduled-deferred", TypeInformation.of(ParsedRecord.class));
    }
}
