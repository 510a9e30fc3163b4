package dev.tokentrace.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

/**
 * The correlate engines on the class path, found through {@link ServiceLoader} ({@code
 * META-INF/services/dev.tokentrace.app.CorrelateEngine}; docs/design.md#correlate-engines).
 */
public final class CorrelateEngines {
  private CorrelateEngines() {}

  /** The default engine: DuckDB's SQL in the analysis file. */
  public static CorrelateEngine standard() {
    return new DuckDbCorrelateEngine();
  }

  /** The names of every engine found, in class-path order. */
  public static List<String> names() {
    List<String> names = new ArrayList<>();
    for (CorrelateEngine engine : ServiceLoader.load(CorrelateEngine.class)) {
      names.add(engine.name());
    }
    return names;
  }

  /**
   * The engine of that name.
   *
   * @throws IllegalArgumentException naming the engines there are when none has that name
   */
  public static CorrelateEngine named(String name) {
    String wanted = name.strip().toLowerCase(Locale.ROOT);
    for (CorrelateEngine engine : ServiceLoader.load(CorrelateEngine.class)) {
      if (engine.name().equals(wanted)) {
        return engine;
      }
    }
    throw new IllegalArgumentException(
        "no correlate engine named '" + name + "' (engines: " + String.join(", ", names()) + ")");
  }
}
