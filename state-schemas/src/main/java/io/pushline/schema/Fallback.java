package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Objects;

/**
 * A long-connection device's vendor channel, given by its bind ({@code "fallback": {"vendor",
 * "token"}}): where the ack tracker sends a message once the device's long connection is down.
 */
@JsonPropertyOrder({"vendor", "token"})
public class Fallback {
    public String vendor;
    public String token;

    public Fallback() {}

    public static Fallback of(String vendor, String token) {
        Fallback f = new Fallback();
        f.vendor = vendor;
        f.token = token;
        return f;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fallback f
                && Objects.equals(vendor, f.vendor)
                && Objects.equals(token, f.token);
    }

    @Override
    public int hashCode() {
        return Objects.hash(vendor, token);
    }

    @Override
    public String toString() {
        return "Fallback{" + vendor + "}";
    }
}
