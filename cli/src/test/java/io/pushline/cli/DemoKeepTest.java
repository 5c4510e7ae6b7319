package io.pushline.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.javalin.Javalin;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** {@code demo --keep} moves the console to a free port when the asked one is taken. */
class DemoKeepTest {
    @Test
    void aTakenPortIsRecognisedThroughJavalinsWrapping() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            Javalin app = Javalin.create();
            Throwable e = catchThrowable(() -> app.start("127.0.0.1", taken.getLocalPort()));
            app.stop();
            assertThat(e).isNotNull();
            assertThat(DemoKeep.portTaken(e)).isTrue();
        }
        assertThat(DemoKeep.portTaken(new IllegalStateException("no HBase"))).isFalse();
    }
}
