package io.pushline.audience.eval;

import java.util.List;

/**
 * An expression that cannot be used: the 1-based column and what was expected there, or which
 * segment name is unknown. {@link #report()} is the contract's form: the message, then the
 * expression, then a caret under the column.
 */
public final class ExpressionException extends IllegalArgumentException {
    private final String expression;
    private final int column;
    private final List<String> suggestions;

    ExpressionException(String expression, int column, String what) {
        this(expression, column, what, List.of());
    }

    ExpressionException(String expression, int column, String what, List<String> suggestions) {
        super("column " + column + ": " + what);
        this.expression = expression;
        this.column = column;
        this.suggestions = List.copyOf(suggestions);
    }

    /** Existing names close to an unknown one, closest first; empty for other errors. */
    public List<String> suggestions() {
        return suggestions;
    }

    public int column() {
        return column;
    }

    public String report() {
        return getMessage() + "\n" + expression + "\n" + " ".repeat(Math.max(0, column - 1)) + "^";
    }
}
