package io.pushline.serve;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /v1/inbox/{uid}} answered in Jetty's own handler, before the servlet layer and
 * Javalin's routing: the server's most frequent request, a page from memory, spent about as long in
 * those layers as in the inbox itself (bench inbox, JFR). Same answers as the route it stands in
 * front of: the app token, 400s naming the parameter, 503 when the store does not answer, the
 * request metrics under the route's pattern. Any other request, and any form of this one it does
 * not take plainly (a trailing slash, {@code HEAD}, a path that does not decode), goes on to
 * Javalin, where the same route serves it.
 */
final class InboxPageHandler extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger(InboxPageHandler.class);
    private static final String PREFIX = "/v1/inbox/";
    static final String ROUTE = "/v1/inbox/{uid}";

    private final InboxApi inbox;
    private final Predicate<String> appAllowed;
    private final RequestMetrics metrics;

    /**
     * @param appAllowed whether a request with this {@code Authorization} header (null: none) may
     *     use the app APIs
     */
    InboxPageHandler(InboxApi inbox, Predicate<String> appAllowed, RequestMetrics metrics) {
        this.inbox = inbox;
        this.appAllowed = appAllowed;
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String uid = uid(request);
        if (uid == null) {
            return super.handle(request, response, callback);
        }
        long start = System.nanoTime();
        int status;
        byte[] body;
        if (!appAllowed.test(request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
            status = 401;
            body = Server.errorBody(Server.APP_TOKEN_NEEDED);
        } else {
            try {
                Fields query = Request.extractQueryParameters(request, StandardCharsets.UTF_8);
                body = inbox.page(uid, query.getValue("limit"), query.getValue("before"));
                status = 200;
            } catch (Server.BadRequest e) {
                status = 400;
                body = Server.errorBody(e.getMessage());
            } catch (IOException e) {
                LOG.warn("GET {}: {}", ROUTE, e.toString());
                status = 503;
                body = Server.errorBody(Server.STORE_DID_NOT_ANSWER);
            } catch (RuntimeException e) {
                LOG.error("GET {} failed", ROUTE, e);
                status = 500;
                body = Server.errorBody("internal error");
            }
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
        metrics.record(ROUTE, status, (System.nanoTime() - start) / 1e6);
        return true;
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
