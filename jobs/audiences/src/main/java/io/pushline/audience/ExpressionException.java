package io.pushline.audience;

/**
 * An expression that cannot be used: the 1-based column and what was expected there, or which
 * segment name is unknown. {@link #report()} is the contract's form: the message, then the
 * expression, then a caret under the column.
 */
public final class ExpressionException extends IllegalArgumentException {
    private final String expression;
    private final int column;

    ExpressionException(String expression, int column, String what) {
        super("column " + column + ": " + what);
        this.expression = expression;
        this.column = column;
    }

    public int column() {
        return column;
    }

    public String report() {
        return getMessage() + "\n" + expression + "\n" + " ".repeat(Math.max(0, column - 1)) + "^";
    }
}
