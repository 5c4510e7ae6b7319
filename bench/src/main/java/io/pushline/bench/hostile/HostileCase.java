package io.pushline.bench.hostile;

import java.nio.charset.StandardCharsets;

/**
 * One record an attacker or a careless producer might write to one of the dispatch job's input
 * topics, and what the job must make of it.
 *
 * @param topic where it is written
 * @param name what it is, for the report
 * @param value the record's bytes (null: a tombstone)
 * @param deadLetter whether it must come out as a dead letter; false: it is odd but valid, and must
 *     simply not stop anything
 */
public record HostileCase(String topic, String name, byte[] value, boolean deadLetter) {
    static HostileCase dead(String topic, String name, String text) {
        return new HostileCase(topic, name, bytes(text), true);
    }

    static HostileCase valid(String topic, String name, String text) {
        return new HostileCase(topic, name, bytes(text), false);
    }

    private static byte[] bytes(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return topic + ": " + name;
    }
}
