package io.pushline.audience;

import java.io.IOException;
import java.io.Serializable;

/**
 * Where the dispatch job's campaigns find their audiences: expressions evaluated over the current
 * segments, and dense ids mapped back to uids. Opened once per parallel subtask from a serializable
 * {@link Factory}; the job uses the HBase segment store and dictionary, tests and replays a folder.
 */
public interface Audiences extends AutoCloseable {
    /**
     * @throws ExpressionException when the expression does not parse or names an unknown segment
     * @throws IOException when the store cannot be read (a failure to retry, not bad input)
     */
    IdSet evaluate(String expression) throws IOException;

    /**
     * The uid of each id, null where the dictionary has none (an id lost in an assignment race).
     */
    String[] uids(int[] ids) throws IOException;

    @Override
    void close() throws IOException;

    /** Opens the audiences on the task manager. */
    interface Factory extends Serializable {
        Audiences open() throws IOException;
    }
}
