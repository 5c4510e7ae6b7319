package io.pushline.inbox;

/** A message as an inbox shows it: stored once, whatever the number of inboxes it is in. */
public record Message(int id, String msgId, String title, String body, long ts) {}
