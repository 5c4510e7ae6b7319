package io.pushline.serve;

import io.javalin.Javalin;
import io.pushline.common.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * {@code serve.tls.keystore}: the server terminates TLS itself (TLS 1.2 and 1.3, Jetty's default
 * cipher suites), for a deployment without a proxy in front. The keystore's password comes through
 * the options' secret syntax ({@code ${file:..}}, {@code ${env:..}}), never as a plain argument.
 */
final class Tls {
    private Tls() {}

    /** Stops start-up, naming the option, when the keystore cannot be read. */
    static void check(Path keystore) {
        if (!Files.isReadable(keystore)) {
            throw new UsageException(
                    "option 'serve.tls.keystore': cannot read the keystore " + keystore);
        }
    }

    static Connector connector(
            Server server,
            HttpConfiguration http,
            Path keystore,
            String password,
            String host,
            int port) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(keystore.toAbsolutePath().toString());
        ssl.setKeyStorePassword(password == null ? "" : password);
        ssl.setIncludeProtocols("TLSv1.3", "TLSv1.2");
        HttpConfiguration https = new HttpConfiguration(http);
        // no SNI host check: the certificate's names are the operator's business
        https.addCustomizer(new SecureRequestCustomizer(false));
        ServerConnector c =
                new ServerConnector(
                        server,
                        new SslConnectionFactory(ssl, "http/1.1"),
                        new HttpConnectionFactory(https));
        c.setHost(host);
        c.setPort(port);
        return c;
    }

    /** The port the TLS connector listens on (useful with 0). */
    static int port(Javalin app) {
        for (Connector c : app.jettyServer().server().getConnectors()) {
            if (c instanceof ServerConnector s) {
                return s.getLocalPort();
            }
        }
        throw new IllegalStateException("no connector");
    }
}
