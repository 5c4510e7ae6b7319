package io.pushline.audience;

/** A request names a saved audience that is not there (or saved audiences cannot be read here). */
public final class NoSuchAudienceException extends IllegalArgumentException {
    public NoSuchAudienceException(String message) {
        super(message);
    }
}
