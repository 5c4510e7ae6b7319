package io.pushline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A CustomResourceDefinition's {@code openAPIV3Schema} (a Kubernetes structural schema), checked as
 * the API server checks a custom resource, and strictly: a field the schema does not declare is an
 * error (as {@code kubectl apply --validate=strict} reports it), not silently pruned.
 */
final class CrdSchema {
    private final JsonNode root;

    private CrdSchema(JsonNode root) {
        this.root = root;
    }

    /** The schema of {@code version} in the CRD document {@code crd}. */
    static CrdSchema of(JsonNode crd, String version) {
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("name").asText().equals(version)) {
                return new CrdSchema(v.path("schema").path("openAPIV3Schema"));
            }
        }
        throw new IllegalArgumentException("the CRD has no version " + version);
    }

    /** What is wrong with {@code doc}, one line each; empty when the resource is valid. */
    List<String> errors(JsonNode doc) {
        List<String> errors = new ArrayList<>();
        check(doc, root, "", errors);
        return errors;
    }

    private static void check(JsonNode node, JsonNode schema, String path, List<String> errors) {
        String at = path.isEmpty() ? "/" : path;
        if (schema.path("x-kubernetes-int-or-string").asBoolean()) {
            if (!node.isIntegralNumber() && !node.isTextual()) {
                errors.add(at + ": expected an integer or a string, got " + node);
            }
            return;
        }
        String type = schema.path("type").asText("");
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean();
        if (type.isEmpty() && preserve) {
            return;
        }
        if (node.isNull() && schema.path("nullable").asBoolean()) {
            return;
        }
        switch (type) {
            case "object" -> object(node, schema, path, preserve, errors);
            case "array" -> {
                if (!node.isArray()) {
                    errors.add(at + ": expected an array, got " + node);
                    return;
                }
                for (int i = 0; i < node.size(); i++) {
                    check(node.get(i), schema.path("items"), path + "/" + i, errors);
                }
            }
            case "string" -> {
                if (!node.isTextual()) {
                    errors.add(at + ": expected a string, got " + node);
                }
            }
            case "integer" -> {
                if (!node.isIntegralNumber()) {
                    errors.add(at + ": expected an integer, got " + node);
                }
            }
            case "number" -> {
                if (!node.isNumber()) {
                    errors.add(at + ": expected a number, got " + node);
                }
            }
            case "boolean" -> {
                if (!node.isBoolean()) {
                    errors.add(at + ": expected a boolean, got " + node);
                }
            }
            default -> errors.add(at + ": the schema has no type here ('" + type + "')");
        }
        JsonNode allowed = schema.get("enum");
        if (allowed != null) {
            boolean found = false;
            for (JsonNode a : allowed) {
                found |= a.equals(node);
            }
            if (!found) {
                errors.add(at + ": " + node + " is not one of " + allowed);
            }
        }
    }

    private static void object(
            JsonNode node, JsonNode schema, String path, boolean preserve, List<String> errors) {
        String at = path.isEmpty() ? "/" : path;
        if (!node.isObject()) {
            errors.add(at + ": expected an object, got " + node);
            return;
        }
        for (JsonNode r : schema.path("required")) {
            if (!node.has(r.asText())) {
                errors.add(at + ": required field '" + r.asText() + "' is missing");
            }
        }
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        // metadata is checked by the API server as ObjectMeta, not by the CRD's schema
        boolean anyFields = path.endsWith("/metadata") && !properties.isObject();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String child = path + "/" + f.getKey();
            if (path.isEmpty() && List.of("apiVersion", "kind", "metadata").contains(f.getKey())) {
                continue; // every object's own fields, checked by the API server
            }
            if (properties.has(f.getKey())) {
                check(f.getValue(), properties.get(f.getKey()), child, errors);
            } else if (additional != null && additional.isObject()) {
                check(f.getValue(), additional, child, errors);
            } else if (!preserve && !anyFields) {
                errors.add(child + ": unknown field");
            }
        }
    }
}
