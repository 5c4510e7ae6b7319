package io.pushline.serve;

/**
 * The gate-aware dry run: what the dispatch job would do with a campaign to an audience now, from
 * the job's state. It needs Flink's runtime (the State Processor API), which the server does not
 * carry: {@link ServeMain} runs it as {@code ./pushline audience dry-run} in a JVM of its own.
 */
public interface DryRunner {
    /**
     * @param expression checked by the caller
     * @return the answer as JSON (the format of docs/console.md)
     * @throws DryRunException when no answer can be given (no checkpoint yet, the run failed), its
     *     message for the person who asked
     */
    String run(String expression, String msgType) throws Exception;

    /** Why a dry run has no answer, in words for the page. */
    final class DryRunException extends Exception {
        private static final long serialVersionUID = 1L;

        public DryRunException(String message) {
            super(message);
        }
    }
}
