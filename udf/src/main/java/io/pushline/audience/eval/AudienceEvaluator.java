package io.pushline.audience.eval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.roaringbitmap.FastAggregation;
import org.roaringbitmap.RoaringBitmap;

/**
 * Evaluates audience expressions over named segments: AND as one n-way intersection, OR as one
 * n-way union (FastAggregation), NOT as the complement within the universe, and {@code a AND NOT b}
 * as a difference without building the complement.
 */
public final class AudienceEvaluator {
    private final Map<String, IdSet> segments;
    private final IdSet universe;

    public AudienceEvaluator(Map<String, IdSet> segments, IdSet universe) {
        this.segments = segments;
        this.universe = universe;
    }

    /** Parses, checks the names and evaluates. */
    public IdSet evaluate(String expression) {
        Expr e = ExpressionParser.parse(expression);
        check(expression, e, segments.keySet());
        return evaluate(e);
    }

    /** Evaluates an expression whose names were checked. */
    public IdSet evaluate(Expr e) {
        RoaringBitmap result = eval(e);
        // eval may hand back a segment's own bitmap: callers get a set nobody else holds.
        return new IdSet(e instanceof Expr.Segment ? result.clone() : result);
    }

    /**
     * The expression as a tree, one line per node with the size of its result, aligned: what {@code
     * ./pushline audience explain} prints.
     */
    public List<String> explain(Expr e) {
        List<Node> nodes = explainNodes(e);
        int width =
                nodes.stream()
                        .mapToInt(n -> n.lead().length() + n.label().length())
                        .max()
                        .orElse(0);
        List<String> out = new ArrayList<>(nodes.size());
        for (Node n : nodes) {
            out.add(String.format("%-" + width + "s  %,15d", n.lead() + n.label(), n.size()));
        }
        return out;
    }

    /** One node of the explain tree: the tree's drawing before it, its label, its result's size. */
    public record Node(String lead, String label, long size) {}

    /** The explain tree's nodes, depth first (the console draws them). */
    public List<Node> explainNodes(Expr e) {
        List<Node> rows = new ArrayList<>();
        explain(e, "", "", rows);
        return rows;
    }

    private void explain(Expr e, String lead, String childLead, List<Node> rows) {
        String label =
                e instanceof Expr.Segment
                        ? ((Expr.Segment) e).name
                        : e instanceof Expr.Not ? "NOT" : e instanceof Expr.And ? "AND" : "OR";
        rows.add(new Node(lead, label, eval(e).getLongCardinality()));
        List<Expr> children =
                e instanceof Expr.Segment
                        ? List.of()
                        : e instanceof Expr.Not ? List.of(((Expr.Not) e).operand) : operands(e);
        for (int i = 0; i < children.size(); i++) {
            boolean last = i == children.size() - 1;
            explain(
                    children.get(i),
                    childLead + (last ? "└── " : "├── "),
                    childLead + (last ? "    " : "│   "),
                    rows);
        }
    }

    /**
     * @throws ExpressionException naming the first unknown segment, with close existing names
     */
    public static void check(String expression, Expr e, Set<String> names) {
        if (e instanceof Expr.Segment) {
            Expr.Segment s = (Expr.Segment) e;
            if (!names.contains(s.name)) {
                List<String> close = closest(s.name, names);
                throw new ExpressionException(
                        expression,
                        s.column,
                        "unknown segment '"
                                + s.name
                                + "'"
                                + (close.isEmpty()
                                        ? ""
                                        : " (did you mean "
                                                + close.stream()
                                                        .map(c -> "'" + c + "'")
                                                        .collect(Collectors.joining(", "))
                                                + "?)"),
                        close);
            }
        } else if (e instanceof Expr.Not) {
            check(expression, ((Expr.Not) e).operand, names);
        } else {
            for (Expr x : operands(e)) {
                check(expression, x, names);
            }
        }
    }

    /** The segment names an expression reads, in order of first appearance. */
    public static Set<String> names(Expr e) {
        Set<String> out = new LinkedHashSet<>();
        collect(e, out);
        return out;
    }

    private static void collect(Expr e, Set<String> out) {
        if (e instanceof Expr.Segment) {
            out.add(((Expr.Segment) e).name);
        } else if (e instanceof Expr.Not) {
            collect(((Expr.Not) e).operand, out);
        } else {
            for (Expr x : operands(e)) {
                collect(x, out);
            }
        }
    }

    private RoaringBitmap eval(Expr e) {
        if (e instanceof Expr.Segment) {
            return segments.get(((Expr.Segment) e).name).bits;
        }
        if (e instanceof Expr.Not) {
            return RoaringBitmap.andNot(universe.bits, eval(((Expr.Not) e).operand));
        }
        if (e instanceof Expr.Or) {
            List<Expr> xs = operands(e);
            RoaringBitmap[] parts = new RoaringBitmap[xs.size()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = eval(xs.get(i));
            }
            return FastAggregation.or(parts);
        }
        List<RoaringBitmap> include = new ArrayList<>();
        List<RoaringBitmap> exclude = new ArrayList<>();
        for (Expr x : operands(e)) {
            if (x instanceof Expr.Not) {
                exclude.add(eval(((Expr.Not) x).operand));
            } else {
                include.add(eval(x));
            }
        }
        RoaringBitmap result;
        if (include.isEmpty()) {
            result = universe.bits.clone();
        } else if (include.size() > 1) {
            result = FastAggregation.and(include.toArray(new RoaringBitmap[0]));
        } else {
            // A computed operand is ours to change; a segment's own bitmap is not.
            boolean shared = operands(e).stream().anyMatch(x -> x instanceof Expr.Segment);
            result = shared ? include.get(0).clone() : include.get(0);
        }
        for (RoaringBitmap x : exclude) {
            result.andNot(x);
        }
        return result;
    }

    static List<Expr> operands(Expr e) {
        return e instanceof Expr.And ? ((Expr.And) e).operands : ((Expr.Or) e).operands;
    }

    /** Existing names within a small edit distance (or equal ignoring case), closest first. */
    static List<String> closest(String name, Collection<String> names) {
        int limit = Math.max(1, Math.min(3, name.length() / 3));
        return names.stream()
                .filter(s -> s.equalsIgnoreCase(name) || distance(s, name) <= limit)
                .sorted(
                        Comparator.comparingInt((String s) -> distance(s, name))
                                .thenComparing(s -> s))
                .limit(3)
                .collect(Collectors.toList());
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
