package io.pushline.dispatch.gate;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * One shared instance per distinct name (msgType, vendor, zone): lookups by a shared instance
 * compare by reference and touch memory that stays in the CPU's cache. Names past {@link #MAX}
 * distinct ones are returned as they are, so odd input cannot grow the table without bound.
 */
final class Names {
    static final int MAX = 10_000;
    private final Map<String, String> shared = new HashMap<>();

    String canonical(String name) {
        if (name == null) {
            return null;
        }
        String s = shared.get(name);
        if (s != null) {
            return s;
        }
        if (shared.size() < MAX) {
            shared.put(name, name);
        }
        return name;
    }

    /**
     * Makes these the shared instances of their names (the rules' msgTypes): a lookup in the rules'
     * own maps then matches its key by reference instead of comparing the characters.
     */
    void prefer(Collection<String> names) {
        for (String n : names) {
            if (n != null && (shared.size() < MAX || shared.containsKey(n))) {
                shared.put(n, n);
            }
        }
    }
}
