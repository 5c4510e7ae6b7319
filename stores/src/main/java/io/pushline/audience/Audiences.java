package io.pushline.audience;

import io.pushline.audience.eval.ExpressionException;
import io.pushline.audience.eval.IdSet;
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

    /**
     * The current version of the saved audience {@code name} ({@link SavedAudienceStore}): a
     * campaign that names it goes to that version's expression, evaluated now.
     *
     * @throws NoSuchAudienceException when there is none by that name, or no saved audiences here
     */
    default SavedAudienceStore.Version saved(String name) throws IOException {
        throw new NoSuchAudienceException(
                "saved audience '" + name + "': saved audiences need the HBase segment store");
    }

    /** Notes that campaign {@code msgId} went to {@code version} of saved audience {@code name}. */
    default void usedBy(String name, long version, String msgId, long ts) throws IOException {}

    @Override
    void close() throws IOException;

    /** Opens the audiences on the task manager. */
    interface Factory extends Serializable {
        Audiences open() throws IOException;
    }
}
