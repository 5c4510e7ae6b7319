package io.pushline.serve;

import io.javalin.config.RoutesConfig;

/**
 * A group of HTTP routes: the inbox, the console, the reminder pull, health and metrics. Each
 * registers its own paths here, and {@link Server} registers every group the same way, so a new
 * endpoint goes into the group it belongs to (or a new one) and nowhere else.
 */
interface Api {
    void routes(RoutesConfig routes);
}
