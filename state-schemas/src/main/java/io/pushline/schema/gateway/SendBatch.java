package io.pushline.schema.gateway;

import io.pushline.schema.SendRecord;

/**
 * Sends of one message to one vendor that go in one call (a vendor's multi-token send), or one send
 * where the vendor has none. This is what the gateway's asynchronous operator keeps in its
 * checkpoint while the call is in flight, and calls again after a restore: a POJO of a {@link
 * SendRecord} array, so Flink serializes it with its POJO and array serializers, never Kryo.
 */
public class SendBatch {
    public String vendor;
    public SendRecord[] sends;

    public SendBatch() {}

    public SendBatch(String vendor, SendRecord[] sends) {
        this.vendor = vendor;
        this.sends = sends;
    }
}
