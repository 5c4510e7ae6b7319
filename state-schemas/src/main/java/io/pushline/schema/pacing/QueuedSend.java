package io.pushline.schema.pacing;

import io.pushline.schema.SendRecord;

/** A send waiting in a vendor's backlog, with the processing time it joined (for wait metrics). */
public class QueuedSend {
    public SendRecord send;
    public long enqueuedAt;

    public QueuedSend() {}

    public QueuedSend(SendRecord send, long enqueuedAt) {
        this.send = send;
        this.enqueuedAt = enqueuedAt;
    }
}
