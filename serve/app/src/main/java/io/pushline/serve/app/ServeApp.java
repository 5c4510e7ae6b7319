package io.pushline.serve.app;

import io.pushline.serve.ServeMain;

/**
 * The entry of serve's own jar: {@code java -jar pushline-serve.jar [--key value ...]} runs the
 * HTTP API and the console as {@code ./pushline serve} does, with nothing else on the machine but a
 * JDK; the console's dry run is {@link DryRunMain} from the same jar.
 */
public final class ServeApp {
    private ServeApp() {}

    public static void main(String[] args) {
        ServeMain.main(args);
    }
}
