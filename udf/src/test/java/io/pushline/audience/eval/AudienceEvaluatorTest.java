package io.pushline.audience.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.IntIterator;

class AudienceEvaluatorTest {
    static final String[] NAMES = {"sports", "news", "region:beijing", "churned", "fans/host42"};

    @Test
    void randomExpressionsEqualSetAlgebra() {
        Random rnd = new Random(11);
        int universeSize = 300;
        Map<String, Set<Integer>> sets = new HashMap<>();
        Map<String, IdSet> segments = new HashMap<>();
        for (String n : NAMES) {
            Set<Integer> s = new TreeSet<>();
            for (int i = 0; i < universeSize; i++) {
                if (rnd.nextInt(3) == 0) {
                    s.add(i);
                }
            }
            sets.put(n, s);
            segments.put(n, IdSet.of(s.stream().mapToInt(Integer::intValue).toArray()));
        }
        Set<Integer> universe = new TreeSet<>();
        for (int i = 0; i < universeSize; i++) {
            universe.add(i);
        }
        AudienceEvaluator eval = new AudienceEvaluator(segments, IdSet.range(universeSize));
        for (int k = 0; k < 500; k++) {
            StringBuilder text = new StringBuilder();
            Set<Integer> expected = random(rnd, 3, sets, universe, text);
            assertThat(members(eval.evaluate(text.toString())))
                    .as(text.toString())
                    .isEqualTo(expected);
        }
    }

    /** A random expression as text and its value computed with java.util sets. */
    private static Set<Integer> random(
            Random rnd,
            int depth,
            Map<String, Set<Integer>> sets,
            Set<Integer> universe,
            StringBuilder out) {
        int kind = depth == 0 ? 0 : rnd.nextInt(4);
        if (kind == 0) {
            String n = NAMES[rnd.nextInt(NAMES.length)];
            out.append(n.contains("/") ? "\"" + n + "\"" : n);
            return new TreeSet<>(sets.get(n));
        }
        if (kind == 1) {
            out.append(rnd.nextBoolean() ? "NOT " : "!");
            out.append('(');
            Set<Integer> x = random(rnd, depth - 1, sets, universe, out);
            out.append(')');
            Set<Integer> r = new TreeSet<>(universe);
            r.removeAll(x);
            return r;
        }
        out.append('(');
        Set<Integer> a = random(rnd, depth - 1, sets, universe, out);
        out.append(
                kind == 2
                        ? (rnd.nextBoolean() ? " AND " : " && ")
                        : (rnd.nextBoolean() ? " or " : " | "));
        Set<Integer> b = random(rnd, depth - 1, sets, universe, out);
        out.append(')');
        if (kind == 2) {
            a.retainAll(b);
        } else {
            a.addAll(b);
        }
        return a;
    }

    private static Set<Integer> members(IdSet s) {
        Set<Integer> out = new TreeSet<>();
        for (IntIterator it = s.ids(); it.hasNext(); ) {
            out.add(it.next());
        }
        return out;
    }

    @Test
    void precedenceMattersInResults() {
        Map<String, IdSet> segs =
                Map.of("a", IdSet.of(1, 2), "b", IdSet.of(2, 3), "c", IdSet.of(4));
        AudienceEvaluator eval = new AudienceEvaluator(segs, IdSet.range(6));
        assertThat(members(eval.evaluate("a AND b OR c"))).containsExactly(2, 4);
        assertThat(members(eval.evaluate("a AND (b OR c)"))).containsExactly(2);
        assertThat(members(eval.evaluate("NOT a AND b"))).containsExactly(3);
        assertThat(members(eval.evaluate("NOT (a OR b OR c)"))).containsExactly(0, 5);
    }

    @Test
    void unknownSegmentsAreNamedWithCloseNames() {
        Map<String, IdSet> segs =
                Map.of("sports", IdSet.of(1), "spots", IdSet.of(2), "news", IdSet.of(3));
        AudienceEvaluator eval = new AudienceEvaluator(segs, IdSet.range(5));
        assertThatThrownBy(() -> eval.evaluate("news AND sprots"))
                .isInstanceOfSatisfying(
                        ExpressionException.class,
                        e -> {
                            assertThat(e.column()).isEqualTo(10);
                            assertThat(e.getMessage())
                                    .isEqualTo(
                                            "column 10: unknown segment 'sprots' (did you mean 'spots', 'sports'?)");
                        });
        assertThatThrownBy(() -> eval.evaluate("news OR \"zzzzzz\""))
                .hasMessage("column 9: unknown segment 'zzzzzz'");
    }

    @Test
    void bytesRoundTripAndBadBytesAreRefused() {
        IdSet s = IdSet.range(100_000);
        assertThat(IdSet.fromBytes(s.toBytes())).isEqualTo(s);
        assertThat(s.toBytes().length).isLessThan(100);
        assertThatThrownBy(() -> IdSet.fromBytes(new byte[] {1, 2, 3}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
