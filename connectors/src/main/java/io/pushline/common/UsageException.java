package io.pushline.common;

/** A command line that does not fit the command: reported in one line, without a stack trace. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
