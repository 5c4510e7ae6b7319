package io.pushline.vendors;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A vendor's OAuth-style access token, fetched once and shared by every call until a minute before
 * it expires or the vendor refuses it; one fetch at a time however many calls wait for it.
 */
final class AccessTokens {
    record Token(String value, long expiresAtMs) {}

    /** Refresh this long before the vendor's expiry, so no call carries a token about to lapse. */
    static final long MARGIN_MS = 60_000;

    private final Supplier<CompletableFuture<Token>> fetch;
    private Token current;
    private CompletableFuture<Token> pending;

    AccessTokens(Supplier<CompletableFuture<Token>> fetch) {
        this.fetch = fetch;
    }

    synchronized CompletableFuture<String> get() {
        if (current != null && System.currentTimeMillis() < current.expiresAtMs() - MARGIN_MS) {
            return CompletableFuture.completedFuture(current.value());
        }
        if (pending == null || pending.isDone()) {
            CompletableFuture<Token> f;
            try {
                f = fetch.get();
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            pending = f.whenComplete((t, e) -> keep(t));
        }
        return pending.thenApply(Token::value);
    }

    private synchronized void keep(Token t) {
        if (t != null) {
            current = t;
        }
    }

    /** The vendor refused {@code value}: the next call fetches a new one. */
    synchronized void invalidate(String value) {
        if (current != null && current.value().equals(value)) {
            current = null;
        }
    }
}
