package io.pushline.audience.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses audience expressions: OR of ANDs of (NOT) primaries; NOT binds tightest, then AND, then
 * OR, both left-associative. Keywords AND, OR, NOT are case-insensitive; &amp;, &amp;&amp;, |, ||
 * and ! are their symbols. Errors name the 1-based column of the offending token.
 */
public final class ExpressionParser {
    private enum Kind {
        NAME,
        AND,
        OR,
        NOT,
        LPAREN,
        RPAREN,
        END
    }

    private static final class Token {
        final Kind kind;
        final String text;
        final int column;

        Token(Kind kind, String text, int column) {
            this.kind = kind;
            this.text = text;
            this.column = column;
        }

        String describe() {
            switch (kind) {
                case END:
                    return "end of expression";
                case NAME:
                    return "'" + text + "'";
                default:
                    return "'" + text + "'";
            }
        }
    }

    /**
     * How deep NOTs and parentheses may nest: far beyond any expression a strategist writes, and
     * far below what would overflow the parser's or the evaluator's stack.
     */
    public static final int MAX_DEPTH = 100;

    /** The longest expression accepted, in characters. */
    public static final int MAX_LENGTH = 65_536;

    private final String source;
    private final List<Token> tokens;
    private int at;
    private int depth;

    private ExpressionParser(String source, List<Token> tokens) {
        this.source = source;
        this.tokens = tokens;
    }

    /**
     * @throws ExpressionException when the expression is empty or does not parse
     */
    public static Expr parse(String expression) {
        String src = expression == null ? "" : expression;
        if (src.length() > MAX_LENGTH) {
            throw new ExpressionException(
                    src,
                    MAX_LENGTH + 1,
                    "expression of "
                            + src.length()
                            + " characters, longer than the limit of "
                            + MAX_LENGTH);
        }
        ExpressionParser p = new ExpressionParser(src, tokenize(src));
        if (p.peek().kind == Kind.END) {
            throw new ExpressionException(
                    src, p.peek().column, "empty expression, expected a segment name");
        }
        Expr e = p.or();
        Token rest = p.peek();
        if (rest.kind != Kind.END) {
            throw new ExpressionException(
                    src,
                    rest.column,
                    "expected AND, OR or the end of the expression, found " + rest.describe());
        }
        return e;
    }

    private Expr or() {
        List<Expr> xs = new ArrayList<>();
        xs.add(and());
        while (peek().kind == Kind.OR) {
            at++;
            xs.add(and());
        }
        return xs.size() == 1 ? xs.get(0) : new Expr.Or(xs);
    }

    private Expr and() {
        List<Expr> xs = new ArrayList<>();
        xs.add(unary());
        while (peek().kind == Kind.AND) {
            at++;
            xs.add(unary());
        }
        return xs.size() == 1 ? xs.get(0) : new Expr.And(xs);
    }

    private Expr unary() {
        Token t = peek();
        if (t.kind == Kind.NOT) {
            at++;
            enter(t);
            Expr e = new Expr.Not(unary());
            depth--;
            return e;
        }
        return primary();
    }

    private void enter(Token t) {
        if (++depth > MAX_DEPTH) {
            throw new ExpressionException(
                    source,
                    t.column,
                    "NOT and parentheses nest deeper than " + MAX_DEPTH + " levels here");
        }
    }

    private Expr primary() {
        Token t = peek();
        switch (t.kind) {
            case NAME:
                at++;
                return new Expr.Segment(t.text, t.column);
            case LPAREN:
                at++;
                enter(t);
                Expr inner = or();
                depth--;
                Token close = peek();
                if (close.kind != Kind.RPAREN) {
                    throw new ExpressionException(
                            source,
                            close.column,
                            "expected AND, OR or ')', found " + close.describe());
                }
                at++;
                return inner;
            default:
                throw new ExpressionException(
                        source,
                        t.column,
                        "expected a segment name, NOT or '(', found " + t.describe());
        }
    }

    private Token peek() {
        return tokens.get(at);
    }

    private static boolean nameStart(char c) {
        return (c >= 'A' && c <= 'Z')
                || (c >= 'a' && c <= 'z')
                || (c >= '0' && c <= '9')
                || c == '_';
    }

    private static boolean namePart(char c) {
        return nameStart(c) || c == ':' || c == '.' || c == '-' || c == '/';
    }

    private static List<Token> tokenize(String s) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            int col = i + 1;
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '(') {
                out.add(new Token(Kind.LPAREN, "(", col));
                i++;
            } else if (c == ')') {
                out.add(new Token(Kind.RPAREN, ")", col));
                i++;
            } else if (c == '!') {
                out.add(new Token(Kind.NOT, "!", col));
                i++;
            } else if (c == '&' || c == '|') {
                int len = i + 1 < n && s.charAt(i + 1) == c ? 2 : 1;
                out.add(new Token(c == '&' ? Kind.AND : Kind.OR, s.substring(i, i + len), col));
                i += len;
            } else if (c == '"') {
                StringBuilder name = new StringBuilder();
                int j = i + 1;
                boolean closed = false;
                while (j < n) {
                    char d = s.charAt(j);
                    if (d == '\\'
                            && j + 1 < n
                            && (s.charAt(j + 1) == '"' || s.charAt(j + 1) == '\\')) {
                        name.append(s.charAt(j + 1));
                        j += 2;
                    } else if (d == '"') {
                        closed = true;
                        j++;
                        break;
                    } else if (d == '\\') {
                        throw new ExpressionException(
                                s,
                                j + 1,
                                "expected '\\\"' or '\\\\' after a backslash in a quoted name");
                    } else {
                        name.append(d);
                        j++;
                    }
                }
                if (!closed) {
                    throw new ExpressionException(
                            s, col, "unterminated quote, expected a closing '\"'");
                }
                out.add(new Token(Kind.NAME, name.toString(), col));
                i = j;
            } else if (nameStart(c)) {
                int j = i + 1;
                while (j < n && namePart(s.charAt(j))) {
                    j++;
                }
                String word = s.substring(i, j);
                switch (word.toUpperCase(Locale.ROOT)) {
                    case "AND":
                        out.add(new Token(Kind.AND, word, col));
                        break;
                    case "OR":
                        out.add(new Token(Kind.OR, word, col));
                        break;
                    case "NOT":
                        out.add(new Token(Kind.NOT, word, col));
                        break;
                    default:
                        out.add(new Token(Kind.NAME, word, col));
                }
                i = j;
            } else {
                throw new ExpressionException(
                        s,
                        col,
                        "unexpected character '"
                                + c
                                + "', expected a segment name, AND, OR, NOT, '(' or ')'"
                                + " (quote names with other characters)");
            }
        }
        out.add(new Token(Kind.END, "", n + 1));
        return out;
    }
}
