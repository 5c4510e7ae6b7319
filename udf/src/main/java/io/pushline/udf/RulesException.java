package io.pushline.udf;

/** A rules document that cannot be used; the message names the key. */
public final class RulesException extends IllegalArgumentException {
    public RulesException(String message) {
        super(message);
    }
}
