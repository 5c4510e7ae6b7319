package io.pushline.schema.gateway;

import io.pushline.schema.DeadLetter;
import io.pushline.schema.SendRecord;

/** A record of a vendor topic as the gateway reads it: a send, or a dead letter (never both). */
public class GatewayInput {
    public SendRecord send;
    public DeadLetter dead;

    public GatewayInput() {}

    public static GatewayInput of(SendRecord s) {
        GatewayInput g = new GatewayInput();
        g.send = s;
        return g;
    }

    public static GatewayInput of(DeadLetter d) {
        GatewayInput g = new GatewayInput();
        g.dead = d;
        return g;
    }
}
