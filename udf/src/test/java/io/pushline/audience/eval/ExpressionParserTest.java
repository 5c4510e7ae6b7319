package io.pushline.audience.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionParserTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '#',
            value = {
                "a AND b OR c#((a AND b) OR c)",
                "a OR b AND c#(a OR (b AND c))",
                "NOT a AND b#(NOT a AND b)",
                "NOT NOT a#NOT NOT a",
                "a and b Or not c#(a AND b) OR NOT c",
                "a & b && c | d || e#((a AND b AND c) OR d OR e)",
                "!a#NOT a",
                "(a OR b) AND c#((a OR b) AND c)",
                "fans:host42 AND region/beijing.x-1#(fans:host42 AND region/beijing.x-1)",
                "\"AND\" OR \"with space\" OR \"q\\\"uote\\\\\"#(AND OR with space OR q\"uote\\)",
                "  a  #a",
            })
    void precedenceAndAssociativity(String expr, String tree) {
        String actual = ExpressionParser.parse(expr).toString();
        assertThat(strip(actual)).isEqualTo(strip(tree));
    }

    /** Outer parentheses are not significant in the comparison. */
    private static String strip(String s) {
        return s.startsWith("(") && s.endsWith(")") && balanced(s.substring(1, s.length() - 1))
                ? s.substring(1, s.length() - 1)
                : s;
    }

    private static boolean balanced(String s) {
        int depth = 0;
        for (char c : s.toCharArray()) {
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth < 0) {
                return false;
            }
        }
        return depth == 0;
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "''|1|empty expression",
                "'   '|4|empty expression",
                "a AND|6|expected a segment name, NOT or '(', found end of expression",
                "a AND OR b|7|expected a segment name, NOT or '(', found 'OR'",
                "(a OR b|8|expected AND, OR or ')', found end of expression",
                "a b|3|expected AND, OR or the end of the expression, found 'b'",
                "a ) b|3|found ')'",
                "a AND \"bc|7|unterminated quote",
                "a AND $x|7|unexpected character '$'",
                "-a|1|unexpected character '-'",
                "NOT|4|found end of expression",
            })
    void errorsGiveTheColumnOfTheOffendingToken(String expr, int column, String message) {
        assertThatThrownBy(() -> ExpressionParser.parse(expr))
                .isInstanceOfSatisfying(
                        ExpressionException.class,
                        e -> {
                            assertThat(e.column()).isEqualTo(column);
                            assertThat(e.getMessage())
                                    .startsWith("column " + column + ": ")
                                    .contains(message);
                            String[] lines = e.report().split("\n", -1);
                            assertThat(lines).hasSize(3);
                            assertThat(lines[1]).isEqualTo(expr);
                            assertThat(lines[2]).isEqualTo(" ".repeat(column - 1) + "^");
                        });
    }

    /** 20,000 NOTs once overflowed the parser's stack; nesting stops at a depth limit instead. */
    @Test
    void deepNestingIsAnErrorAtTheFirstLevelTooDeep() {
        assertThatThrownBy(() -> ExpressionParser.parse("NOT ".repeat(20_000) + "sports"))
                .isInstanceOf(ExpressionException.class);
        String nots = "NOT ".repeat(10_000) + "sports";
        assertThatThrownBy(() -> ExpressionParser.parse(nots))
                .isInstanceOfSatisfying(
                        ExpressionException.class,
                        e -> {
                            assertThat(e.column()).isEqualTo(4 * ExpressionParser.MAX_DEPTH + 1);
                            assertThat(e.getMessage()).contains("deeper than 100 levels");
                        });
        String parens = "(".repeat(5_000) + "a" + ")".repeat(5_000);
        assertThatThrownBy(() -> ExpressionParser.parse(parens))
                .isInstanceOfSatisfying(
                        ExpressionException.class,
                        e -> assertThat(e.column()).isEqualTo(ExpressionParser.MAX_DEPTH + 1));
        String deepest = "NOT (".repeat(50) + "a" + ")".repeat(50);
        assertThat(ExpressionParser.parse(deepest)).isNotNull();
    }

    @Test
    void anOverlongExpressionIsAnError() {
        String longest = "a" + " OR a".repeat((ExpressionParser.MAX_LENGTH - 1) / 5);
        assertThat(ExpressionParser.parse(longest)).isNotNull();
        String tooLong = longest + " OR ab";
        assertThatThrownBy(() -> ExpressionParser.parse(tooLong))
                .isInstanceOf(ExpressionException.class)
                .hasMessageContaining("longer than the limit of 65536");
    }
}
