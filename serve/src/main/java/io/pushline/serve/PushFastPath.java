package io.pushline.serve;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/push} without an Idempotency-Key, answered by the front handler ({@link
 * InboxPageHandler}) without Jetty's servlet layer and Javalin: the body read asynchronously, the
 * line made and checked as {@link WriteApi} does, handed to the commit queue, and the answer
 * written from the committer's completion. Nothing here blocks a thread.
 *
 * <p>Why: the push is the API's busiest call, and a CPU profile of {@code bench api} found half the
 * samples in the servlet and routing layers. The answers are those of the route: the same key and
 * scope checks (401, 403, 429), 413, 415, the 400s naming the field, 503 when nothing was
 * committed, the same request metrics. A call with an Idempotency-Key goes to the route.
 */
final class PushFastPath {
    private static final Logger LOG = LoggerFactory.getLogger(PushFastPath.class);
    static final String PATH = "/v1/push";

    private final WriteApi writes;
    private final AppAccess access;
    private final RequestMetrics metrics;

    PushFastPath(WriteApi writes, AppAccess access, RequestMetrics metrics) {
        this.writes = writes;
        this.access = access;
        this.metrics = metrics;
    }

    /** Whether this path answers {@code request} (else it goes on to the routes). */
    static boolean takes(Request request) {
        return "POST".equals(request.getMethod())
                && PATH.equals(request.getHttpURI().getPath())
                && request.getHeaders().get("Idempotency-Key") == null;
    }

    void handle(Request request, Response response, Callback callback) {
        long start = System.nanoTime();
        Server.Refused refused =
                access.refusal(
                        request.getHeaders().get(HttpHeader.AUTHORIZATION), AppKeys.Scope.PUSH);
        if (refused != null) {
            refuse(response, callback, start, refused);
            return;
        }
        if (!AppAccess.isJson(request.getHeaders().get(HttpHeader.CONTENT_TYPE))) {
            refuse(
                    response,
                    callback,
                    start,
                    new Server.Refused(
                            415, "the body must be JSON (Content-Type: application/json)", null));
            return;
        }
        if (request.getLength() > AppAccess.MAX_BODY) {
            refuse(response, callback, start, AppAccess.tooLarge());
            return;
        }
        new BodyReader(request, response, callback, start).run();
    }

    /**
     * Reads the body chunk by chunk into an array of its announced length, on whatever thread Jetty
     * calls back on. Jetty's own {@code Content.Source.asByteArrayAsync(source, max)} took a buffer
     * sized for the largest body allowed: 40 % of the benchmark's allocations (JFR), and the
     * garbage collections they caused made the latency's tail.
     */
    private final class BodyReader implements Runnable {
        private final Request request;
        private final Response response;
        private final Callback callback;
        private final long start;
        private byte[] body;
        private int size;

        BodyReader(Request request, Response response, Callback callback, long start) {
            this.request = request;
            this.response = response;
            this.callback = callback;
            this.start = start;
            long announced = request.getLength();
            this.body = new byte[announced >= 0 ? (int) announced : 1024];
        }

        @Override
        public void run() {
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    request.demand(this);
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    refuse(
                            response,
                            callback,
                            start,
                            new Server.Refused(400, "body: could not be read", "body"));
                    return;
                }
                ByteBuffer b = chunk.getByteBuffer();
                int n = b.remaining();
                if (size + n > AppAccess.MAX_BODY) {
                    chunk.release();
                    refuse(response, callback, start, AppAccess.tooLarge());
                    return;
                }
                if (size + n > body.length) {
                    body = java.util.Arrays.copyOf(body, Math.max(size + n, body.length * 2));
                }
                b.get(body, size, n);
                size += n;
                boolean last = chunk.isLast();
                chunk.release();
                if (last) {
                    write(
                            size == body.length ? body : java.util.Arrays.copyOf(body, size),
                            response,
                            callback,
                            start);
                    return;
                }
            }
        }
    }

    private void write(byte[] body, Response response, Callback callback, long start) {
        WriteApi.Prepared p;
        try {
            p = writes.preparePush(body);
        } catch (Server.BadRequest e) {
            answer(response, callback, start, 400, Server.errorBody(e.getMessage(), e.field));
            return;
        } catch (Server.Refused e) {
            refuse(response, callback, start, e);
            return;
        } catch (RuntimeException | StackOverflowError e) {
            LOG.error("POST {} failed", PATH, e);
            answer(response, callback, start, 500, Server.errorBody("internal error", null));
            return;
        }
        writes.lines()
                .append(p.lines())
                .whenComplete(
                        (ok, notCommitted) -> {
                            if (notCommitted == null) {
                                answer(
                                        response,
                                        callback,
                                        start,
                                        p.status(),
                                        p.answer().getBytes(StandardCharsets.UTF_8));
                            } else {
                                answer(
                                        response,
                                        callback,
                                        start,
                                        503,
                                        Server.errorBody(WriteApi.NOT_WRITTEN, null));
                            }
                        });
    }

    private void refuse(Response response, Callback callback, long start, Server.Refused r) {
        if (r.retryAfterSeconds > 0) {
            response.getHeaders().put(HttpHeader.RETRY_AFTER, r.retryAfterSeconds);
        }
        if (r.status == 413) {
            // the body is left unread, so the connection cannot carry another call: say so, or
            // a keep-alive client sends its next call on a connection about to close (seen in
            // AppApiITCase: "header parser received no bytes")
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        answer(response, callback, start, r.status, Server.errorBody(r.getMessage(), r.field));
    }

    private void answer(Response response, Callback callback, long start, int status, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
        metrics.record(PATH, status, (System.nanoTime() - start) / 1e6);
    }
}
