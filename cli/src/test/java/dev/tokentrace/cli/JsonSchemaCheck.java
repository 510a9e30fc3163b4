package dev.tokentrace.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A small JSON Schema (2020-12) checker for the keywords docs/report-schema.json uses: type (one or
 * several, null among them), const, enum, format date-time, properties, required,
 * additionalProperties false, items, minItems and local $ref. A schema using any other keyword is
 * itself a problem, so the schema cannot drift out of what is checked. (No validator library is in
 * the project's allowed set.)
 */
final class JsonSchemaCheck {
  private static final Set<String> KEYWORDS =
      Set.of(
          "$schema",
          "$id",
          "$defs",
          "$ref",
          "title",
          "description",
          "type",
          "const",
          "enum",
          "format",
          "properties",
          "required",
          "additionalProperties",
          "items",
          "minItems");

  private final JsonNode root;

  JsonSchemaCheck(JsonNode root) {
    this.root = root;
  }

  /** Every way {@code value} breaks the schema, as {@code $.path: problem}; empty when valid. */
  List<String> problems(JsonNode value) {
    List<String> problems = new ArrayList<>();
    check(root, value, "$", problems);
    return problems;
  }

  private void check(JsonNode schema, JsonNode value, String path, List<String> problems) {
    schema
        .fieldNames()
        .forEachRemaining(
            keyword -> {
              if (!KEYWORDS.contains(keyword)) {
                problems.add(path + ": schema keyword '" + keyword + "' is not checked");
              }
            });
    if (schema.has("$ref")) {
      String ref = schema.get("$ref").asText();
      JsonNode target = root.at(ref.substring(1));
      if (!ref.startsWith("#/") || target.isMissingNode()) {
        problems.add(path + ": unresolvable $ref " + ref);
        return;
      }
      check(target, value, path, problems);
      return;
    }
    if (schema.has("const") && !schema.get("const").equals(value)) {
      problems.add(path + ": expected " + schema.get("const") + ", got " + value);
    }
    if (schema.has("enum") && !contains(schema.get("enum"), value)) {
      problems.add(path + ": " + value + " is not one of " + schema.get("enum"));
    }
    if (schema.has("type") && !typeMatches(schema.get("type"), value)) {
      problems.add(path + ": expected type " + schema.get("type") + ", got " + value.getNodeType());
      return;
    }
    if (value.isNull()) {
      return;
    }
    if (schema.has("format") && schema.get("format").asText().equals("date-time")) {
      try {
        Instant.parse(value.asText());
      } catch (DateTimeParseException e) {
        problems.add(path + ": not an ISO-8601 instant: " + value);
      }
    }
    if (value.isObject()) {
      object(schema, value, path, problems);
    }
    if (value.isArray()) {
      if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
        problems.add(path + ": fewer than " + schema.get("minItems") + " items");
      }
      if (schema.has("items")) {
        for (int i = 0; i < value.size(); i++) {
          check(schema.get("items"), value.get(i), path + "[" + i + "]", problems);
        }
      }
    }
  }

  private void object(JsonNode schema, JsonNode value, String path, List<String> problems) {
    JsonNode properties = schema.path("properties");
    for (JsonNode required : schema.path("required")) {
      if (!value.has(required.asText())) {
        problems.add(path + ": missing required '" + required.asText() + "'");
      }
    }
    Iterator<String> names = value.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (properties.has(name)) {
        check(properties.get(name), value.get(name), path + "." + name, problems);
      } else if (schema.path("additionalProperties").isBoolean()
          && !schema.get("additionalProperties").asBoolean()) {
        problems.add(path + ": property '" + name + "' is not in the schema");
      }
    }
  }

  private static boolean contains(JsonNode values, JsonNode value) {
    for (JsonNode candidate : values) {
      if (candidate.equals(value)) {
        return true;
      }
    }
    return false;
  }

  private static boolean typeMatches(JsonNode type, JsonNode value) {
    if (type.isArray()) {
      for (JsonNode one : type) {
        if (typeMatches(one, value)) {
          return true;
        }
      }
      return false;
    }
    switch (type.asText()) {
      case "null":
        return value.isNull();
      case "string":
        return value.isTextual();
      case "integer":
        return value.isIntegralNumber();
      case "number":
        return value.isNumber();
      case "boolean":
        return value.isBoolean();
      case "object":
        return value.isObject();
      case "array":
        return value.isArray();
      default:
        return false;
    }
  }
}
