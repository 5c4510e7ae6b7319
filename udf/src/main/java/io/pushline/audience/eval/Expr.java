package io.pushline.audience.eval;

import java.util.List;

/** A parsed audience expression (docs/audience-expressions.md). */
public abstract class Expr {
    private Expr() {}

    /** A segment by name, with the 1-based column where it was written. */
    public static final class Segment extends Expr {
        public final String name;
        public final int column;

        Segment(String name, int column) {
            this.name = name;
            this.column = column;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Intersection of two or more operands (a chain of AND). */
    public static final class And extends Expr {
        public final List<Expr> operands;

        And(List<Expr> operands) {
            this.operands = operands;
        }

        @Override
        public String toString() {
            return "(" + join(operands, " AND ") + ")";
        }
    }

    /** Union of two or more operands (a chain of OR). */
    public static final class Or extends Expr {
        public final List<Expr> operands;

        Or(List<Expr> operands) {
            this.operands = operands;
        }

        @Override
        public String toString() {
            return "(" + join(operands, " OR ") + ")";
        }
    }

    /** Complement within the universe. */
    public static final class Not extends Expr {
        public final Expr operand;

        Not(Expr operand) {
            this.operand = operand;
        }

        @Override
        public String toString() {
            return "NOT " + operand;
        }
    }

    private static String join(List<Expr> xs, String sep) {
        StringBuilder b = new StringBuilder();
        for (Expr x : xs) {
            if (b.length() > 0) {
                b.append(sep);
            }
            b.append(x);
        }
        return b.toString();
    }
}
