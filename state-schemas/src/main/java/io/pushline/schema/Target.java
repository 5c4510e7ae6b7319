package io.pushline.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Who a push request is for: exactly one of uids, devices, an audience expression or the name of a
 * saved audience (its current version when the campaign is expanded).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Target {
    /** What a saved audience's name may be. */
    public static final Pattern SAVED_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    public List<String> uids;
    public List<String> devices;
    public String audience;
    public String savedAudience;

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

    public static Target ofSavedAudience(String name) {
        Target t = new Target();
        t.savedAudience = name;
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
                && Objects.equals(audience, t.audience)
                && Objects.equals(savedAudience, t.savedAudience);
    }

    @Override
    public int hashCode() {
        return Objects.hash(uids, devices, audience, savedAudience);
    }
}
