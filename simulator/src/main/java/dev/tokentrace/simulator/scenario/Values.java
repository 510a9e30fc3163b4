package dev.tokentrace.simulator.scenario;

import dev.tokentrace.simulator.Distribution;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Typed reading of parameter values that collects every problem instead of stopping at the first,
 * so a user sees all mistakes at once. Not thread-safe.
 */
final class Values {
  private static final Pattern ID_PREFIX = Pattern.compile("[A-Za-z0-9._:-]*");

  private final Map<String, String> values;
  private final List<String> problems = new ArrayList<>();

  Values(Map<String, String> values) {
    this.values = values;
  }

  List<String> problems() {
    return problems;
  }

  void problem(String message) {
    problems.add(message);
  }

  String text(String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalStateException("no value for " + name);
    }
    return value.strip();
  }

  boolean isAuto(String name) {
    return text(name).equalsIgnoreCase(Parameters.AUTO);
  }

  <T> T parse(String name, Function<String, T> parser, T fallback) {
    try {
      return parser.apply(text(name));
    } catch (RuntimeException e) {
      problems.add(name + ": " + message(e, text(name)));
      return fallback;
    }
  }

  private static String message(RuntimeException e, String value) {
    if (e instanceof NumberFormatException) {
      return "not a number: '" + value + "'";
    }
    return e.getMessage() == null ? "bad value '" + value + "'" : e.getMessage();
  }

  int integer(String name) {
    return parse(name, Integer::parseInt, 1);
  }

  long longValue(String name) {
    return parse(name, Long::parseLong, 0L);
  }

  double number(String name) {
    return parse(name, Values::finite, 0.0);
  }

  Distribution distribution(String name) {
    return parse(name, Distribution::parse, new Distribution.Fixed(1));
  }

  boolean bool(String name, boolean auto) {
    return parse(name, text -> toBoolean(text, auto), auto);
  }

  String idPrefix(String name) {
    if (isAuto(name)) {
      return "";
    }
    String prefix = text(name);
    if (!ID_PREFIX.matcher(prefix).matches()) {
      problems.add(name + ": only letters, digits and . _ : - allowed: '" + prefix + "'");
      return "";
    }
    return prefix;
  }

  List<Integer> integers(String name) {
    return parse(
        name,
        text -> {
          List<Integer> list = new ArrayList<>();
          for (String part : text.split(",", -1)) {
            list.add(Integer.parseInt(part.strip()));
          }
          return list;
        },
        List.of(1));
  }

  private static double finite(String text) {
    double value = Double.parseDouble(text);
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("not a finite number: '" + text + "'");
    }
    return value;
  }

  private static boolean toBoolean(String text, boolean auto) {
    switch (text.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      case Parameters.AUTO:
        return auto;
      default:
        throw new IllegalArgumentException("not true, false or auto: '" + text + "'");
    }
  }
}
