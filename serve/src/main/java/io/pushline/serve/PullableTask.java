package io.pushline.serve;

/** A frozen task an app may fire itself: what {@code GET /v1/reminders/{uid}} lists. */
public record PullableTask(String taskId, long fireAt, String title, String body) {}
