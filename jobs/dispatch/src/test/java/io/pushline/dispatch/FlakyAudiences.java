package io.pushline.dispatch;

import io.pushline.audience.Audiences;
import io.pushline.audience.eval.IdSet;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/** Audiences whose store can be switched off: every read then fails as HBase down would. */
final class FlakyAudiences implements Audiences.Factory {
    private static final long serialVersionUID = 1L;

    /** Shared by the harness's copies of the factory (one JVM). */
    static final AtomicBoolean DOWN = new AtomicBoolean();

    private final Audiences.Factory store;

    FlakyAudiences(Audiences.Factory store) {
        this.store = store;
    }

    @Override
    public Audiences open() throws IOException {
        Audiences a = store.open();
        return new Audiences() {
            @Override
            public IdSet evaluate(String expression) throws IOException {
                check();
                return a.evaluate(expression);
            }

            @Override
            public String[] uids(int[] ids) throws IOException {
                check();
                return a.uids(ids);
            }

            @Override
            public void close() throws IOException {
                a.close();
            }
        };
    }

    private static void check() throws IOException {
        if (DOWN.get()) {
            throw new IOException("HBase is down (test)");
        }
    }
}
