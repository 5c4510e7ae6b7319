package io.pushline.serve;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /v1/inbox/{uid}} answered on Jetty's network thread when the inbox is all in memory,
 * before the servlet layer and Javalin's routing; everything else on Jetty's worker threads.
 *
 * <p>Why: a page from memory takes microseconds, and handing each request from the thread that read
 * it to a worker (a wake-up and a context switch, on a machine of two cores) cost more than the
 * page itself. So this handler tells Jetty it never blocks ({@link #getInvocationType}), answers a
 * page from memory at once, and hands to the thread pool what may block: a page that needs HBase (a
 * row not cached, a message or audience not loaded, the list of broadcasts due to be scanned), and
 * every other request, which then goes on to Javalin as before.
 *
 * <p>Same answers as the route it stands in front of: the app key and its scope (401, 403, 429),
 * 400s naming the parameter, 503 when the store does not answer, the request metrics under the
 * route's pattern. A form of the request it does not take plainly (a trailing slash, {@code HEAD},
 * a path that does not decode) reaches Javalin, where the same route serves it.
 */
final class InboxPageHandler extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger(InboxPageHandler.class);
    private static final String PREFIX = "/v1/inbox/";
    static final String ROUTE = "/v1/inbox/{uid}";

    private final InboxApi inbox;
    private final AppAccess access;
    private final RequestMetrics metrics;
    private final PushFastPath pushes;

    /**
     * @param inbox null: no inbox pages here
     * @param pushes null: pushes go to the routes
     */
    InboxPageHandler(
            InboxApi inbox, AppAccess access, RequestMetrics metrics, PushFastPath pushes) {
        this.inbox = inbox;
        this.access = access;
        this.metrics = metrics;
        this.pushes = pushes;
    }

    /** Never blocks: Jetty may call {@link #handle} on the thread that read the request. */
    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (pushes != null && PushFastPath.takes(request)) {
            pushes.handle(request, response, callback);
            return true;
        }
        String uid = inbox == null ? null : uid(request);
        if (uid == null) {
            onWorker(
                    request,
                    response,
                    callback,
                    () -> {
                        if (!super.handle(request, response, callback)) {
                            Response.writeError(request, response, callback, 404);
                        }
                    });
            return true;
        }
        long start = System.nanoTime();
        Server.Refused refused =
                access.refusal(
                        request.getHeaders().get(HttpHeader.AUTHORIZATION), AppKeys.Scope.INBOX);
        if (refused != null) {
            if (refused.retryAfterSeconds > 0) {
                response.getHeaders().put(HttpHeader.RETRY_AFTER, refused.retryAfterSeconds);
            }
            answer(
                    response,
                    callback,
                    start,
                    new Answer(
                            refused.status, Server.errorBody(refused.getMessage(), refused.field)));
            return true;
        }
        Fields query = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
        String limit = query.getValue("limit");
        String before = query.getValue("before");
        Answer fromMemory = answerOf(() -> inbox.pageInMemory(uid, limit, before));
        if (fromMemory != null) {
            answer(response, callback, start, fromMemory);
            return true;
        }
        onWorker(
                request,
                response,
                callback,
                () ->
                        answer(
                                response,
                                callback,
                                start,
                                answerOf(() -> inbox.page(uid, limit, before))));
        return true;
    }

    /** A status and body. */
    private record Answer(int status, byte[] body) {}

    private interface Page {
        byte[] read() throws IOException;
    }

    /** The answer to a page read, errors included; null when the read gave no page. */
    private static Answer answerOf(Page page) {
        try {
            byte[] body = page.read();
            return body == null ? null : new Answer(200, body);
        } catch (Server.BadRequest e) {
            return new Answer(400, Server.errorBody(e.getMessage()));
        } catch (IOException e) {
            LOG.warn("GET {}: {}", ROUTE, e.toString());
            return new Answer(503, Server.errorBody(Server.STORE_DID_NOT_ANSWER));
        } catch (RuntimeException e) {
            LOG.error("GET {} failed", ROUTE, e);
            return new Answer(500, Server.errorBody("internal error"));
        }
    }

    private interface Work {
        void run() throws Exception;
    }

    /** Runs {@code work} on Jetty's thread pool; a failure or a full pool is an error answer. */
    private static void onWorker(Request request, Response response, Callback callback, Work work) {
        try {
            request.getComponents()
                    .getThreadPool()
                    .execute(
                            () -> {
                                try {
                                    work.run();
                                } catch (Throwable t) {
                                    Response.writeError(request, response, callback, t);
                                }
                            });
        } catch (RejectedExecutionException e) {
            Response.writeError(request, response, callback, 503, "the server is overloaded");
        }
    }

    private void answer(Response response, Callback callback, long start, Answer a) {
        int status = a.status();
        byte[] body = a.body();
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
        metrics.record(ROUTE, status, (System.nanoTime() - start) / 1e6);
    }

    /** The uid of a plain {@code GET /v1/inbox/{uid}}, decoded as Javalin does; null otherwise. */
    static String uid(Request request) {
        if (!"GET".equals(request.getMethod())) {
            return null;
        }
        String path = request.getHttpURI().getPath();
        if (path == null || !path.startsWith(PREFIX)) {
            return null;
        }
        String segment = path.substring(PREFIX.length());
        if (segment.isEmpty() || segment.indexOf('/') >= 0) {
            return null;
        }
        try {
            // percent escapes only: in a path a + is a + (as Javalin decodes path parameters)
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
