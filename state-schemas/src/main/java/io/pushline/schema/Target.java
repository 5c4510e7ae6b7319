package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Objects;

/** Who a push request is for: exactly one of uids, devices or an audience expression. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Target {
    public List<String> uids;
    public List<String> devices;
    public String audience;

    public Target() {}

    public static Target ofUids(List<String> uids) {
        Target t = new Target();
        t.uids = uids;
        return t;
    }

    public static Target ofDevices(List<String> devices) {
        Target t = new Target();
        t.devices = devices;
        return t;
    }

    public static Target ofAudience(String expression) {
        Target t = new Target();
        t.audience = expression;
        return t;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Target)) {
            return false;
        }
        Target t = (Target) o;
        return Objects.equals(uids, t.uids)
                && Objects.equals(devices, t.devices)
                && Objects.equals(audience, t.audience);
    }

    @Override
    public int hashCode() {
        return Objects.hash(uids, devices, audience);
    }
}
