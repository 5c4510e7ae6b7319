package io.pushline.serve;

import io.javalin.config.RoutesConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /v1/openapi.json}: the OpenAPI 3.1 document of the app API (writes, status, reminders,
 * inbox), open to anyone: it holds no data. Kept as a resource next to this class; {@code
 * OpenApiTest} checks that every route the server has is in it.
 */
final class OpenApi implements Api {
    static final String RESOURCE = "openapi.json";

    private final byte[] document;

    OpenApi() {
        try (InputStream in = OpenApi.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the jar");
            }
            document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void routes(RoutesConfig r) {
        r.get("/v1/openapi.json", ctx -> ctx.contentType("application/json").result(document));
    }
}
