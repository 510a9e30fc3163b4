package dev.tokentrace.store.query;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.SqlHeader;
import dev.tokentrace.store.SqlParams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jdbi.v3.core.statement.Query;

/**
 * {@code tokentrace sql NAME [--param k=v]... [--format table|csv|json]}: runs one named query of
 * {@code sql/queries/} (or {@code sql/<dir>/<name>} given with its directory) with typed
 * parameters, and prints the rows. Usage problems are collected and reported together. Thread-safe.
 *
 * <p>(Longer than the house's 200 lines: named, file and -e SQL share the parameter checks and the
 * read-only execution.)
 */
public final class NamedQueryRunner {
  private static final String LIBRARY = "queries";

  /** How DuckDB starts the message of a file access its configuration refuses. */
  private static final String PERMISSION_ERROR = "Permission Error";

  private final Database database;

  private ColumnSelection columns = ColumnSelection.ALL;

  /** Prints only these columns of the results (every column unless set). */
  public NamedQueryRunner columns(ColumnSelection selection) {
    this.columns = selection;
    return this;
  }

  public NamedQueryRunner(Database database) {
    this.database = requireNonNull(database, "database is null");
  }

  /** The headers of the query library, for {@code sql --list}. */
  public static List<SqlHeader> list() {
    return SqlCatalog.names(LIBRARY).stream()
        .map(name -> SqlHeader.parse(name, SqlCatalog.get(name)))
        .toList();
  }

  /**
   * Parses {@code key=value} pairs.
   *
   * @throws IllegalArgumentException listing every malformed pair
   */
  public static Map<String, String> parseParams(List<String> pairs) {
    Map<String, String> params = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (String pair : pairs) {
      int equals = pair.indexOf('=');
      if (equals <= 0) {
        problems.add("--param '" + pair + "' must be key=value");
      } else {
        params.put(pair.substring(0, equals).strip(), pair.substring(equals + 1));
      }
    }
    fail(problems);
    return params;
  }

  /**
   * Runs {@code name} and prints its rows to {@code out}; returns the row count.
   *
   * @throws IllegalArgumentException listing every usage problem (unknown query or parameter, bad
   *     value, a file that is not a query)
   * @throws IllegalStateException naming the query when DuckDB fails
   */
  public long run(
      String name, Map<String, String> params, QueryOutputFormat format, Appendable out) {
    String resolved = resolve(name);
    String sql = SqlCatalog.get(resolved);
    SqlHeader header = SqlHeader.parse(resolved, sql);
    if (!isQuery(sql)) {
      throw new IllegalArgumentException(
          "sql/" + resolved + ".sql changes the database and is not run by `sql`; use `correlate`");
    }
    checkParams(resolved, header, params);
    return execute(resolved, sql, header.params(), params, format, out);
  }

  /**
   * Runs SQL given on the command line ({@code -e}) or read from a file: one read-only statement (a
   * SELECT, WITH, FROM, DESCRIBE or SHOW; DuckDB's own parser decides), run inside a read-only
   * transaction, so nothing can change the database. Named parameters ({@code :name}) are bound
   * from {@code params}: typed as a header in the file declares them, else as text.
   *
   * @param origin {@code -e} or the file, for messages
   * @throws IllegalArgumentException when the text is not one read-only statement, or for unknown
   *     parameters
   * @throws IllegalStateException naming the origin when DuckDB fails
   */
  public long runText(
      String origin,
      String sql,
      Map<String, String> params,
      QueryOutputFormat format,
      Appendable out) {
    List<SqlHeader.Param> declared = AdHocSql.params(sql);
    checkParams(origin, new SqlHeader(origin, origin, declared, ""), params);
    AdHocSql.requireReadOnly(database, origin, sql);
    return execute(origin, sql, declared, params, format, out);
  }

  /** Runs {@code sql} in a read-only transaction with every declared parameter bound. */
  private long execute(
      String name,
      String sql,
      List<SqlHeader.Param> declared,
      Map<String, String> params,
      QueryOutputFormat format,
      Appendable out) {
    try {
      return database
          .jdbi()
          .withHandle(
              handle -> {
                handle.execute("BEGIN TRANSACTION READ ONLY");
                try {
                  Query query = handle.createQuery(sql);
                  for (SqlHeader.Param param : declared) {
                    SqlParams.bind(query, param.name(), param.type(), params.get(param.name()));
                  }
                  return query.scanResultSet(
                      (supplier, context) -> print(supplier.get(), format, columns, out));
                } finally {
                  handle.execute("ROLLBACK");
                }
              });
    } catch (UncheckedIOException | IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      String message = rootMessage(e);
      if (message.startsWith(PERMISSION_ERROR)) {
        // the user's SQL reached for a file outside what `sql` may read: a usage error
        throw new IllegalArgumentException(
            name
                + ": `sql` reads only the database, the lake and the paths given with"
                + " --allow-path (docs/privacy.md#sql-file-access): "
                + message.lines().findFirst().orElse(message),
            e);
      }
      throw new IllegalStateException("query " + name + " failed: " + message, e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    String message = cause.getMessage() == null ? e.getMessage() : cause.getMessage();
    return message == null ? e.toString() : message;
  }

  /**
   * {@code slowest_requests} is {@code queries/slowest_requests}; a name with a slash is as given.
   */
  static String resolve(String name) {
    String trimmed = name.strip();
    if (trimmed.endsWith(".sql")) {
      trimmed = trimmed.substring(0, trimmed.length() - ".sql".length());
    }
    if (trimmed.contains("/")) {
      return trimmed.startsWith("sql/") ? trimmed.substring("sql/".length()) : trimmed;
    }
    List<String> known = SqlCatalog.names(LIBRARY);
    String resolved = LIBRARY + "/" + trimmed;
    if (!known.contains(resolved)) {
      List<String> bare =
          known.stream().map(query -> query.substring(LIBRARY.length() + 1)).toList();
      String hint =
          NearMiss.of(trimmed, bare).map(near -> "did you mean '" + near + "'? ").orElse("");
      throw new IllegalArgumentException(
          "unknown query '" + trimmed + "': " + hint + "(known: " + String.join(", ", bare) + ")");
    }
    return resolved;
  }

  private static void checkParams(String name, SqlHeader header, Map<String, String> params) {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, String> param : params.entrySet()) {
      SqlHeader.Param declared =
          header.params().stream()
              .filter(p -> p.name().equals(param.getKey()))
              .findFirst()
              .orElse(null);
      if (declared == null) {
        String hint =
            NearMiss.of(param.getKey(), header.paramNames())
                .map(near -> "did you mean '" + near + "'? ")
                .orElse("");
        problems.add(
            "unknown param '"
                + param.getKey()
                + "' for "
                + name
                + ": "
                + hint
                + "(known: "
                + (header.paramNames().isEmpty() ? "none" : String.join(", ", header.paramNames()))
                + ")");
        continue;
      }
      try {
        SqlParams.convert(declared.name(), declared.type(), param.getValue());
        checkChoice(declared, param.getValue(), problems);
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
    }
    fail(problems);
  }

  /** An enumerated parameter ({@link SqlHeader.Param#choices()}) takes only its listed values. */
  private static void checkChoice(SqlHeader.Param param, String value, List<String> problems) {
    List<String> choices = param.choices();
    if (choices.isEmpty()) {
      return;
    }
    List<String> given = param.isList() ? List.of(value.split(",", -1)) : List.of(value);
    for (String each : given) {
      String item = each;
      if (!choices.contains(item)) {
        String hint =
            NearMiss.of(item, choices).map(near -> "did you mean '" + near + "'? ").orElse("");
        problems.add(
            "bad value '"
                + item
                + "' for param "
                + param.name()
                + ": "
                + hint
                + "(one of: "
                + String.join(", ", choices)
                + ")");
      }
    }
  }

  private static long print(
      ResultSet result, QueryOutputFormat format, ColumnSelection columns, Appendable out)
      throws SQLException {
    try {
      QueryPrinter printer = QueryPrinter.of(format, result.getMetaData(), columns, out);
      long rows = 0;
      while (result.next()) {
        printer.row(result);
        rows++;
      }
      printer.finish(rows);
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the query output", e);
    }
  }

  static boolean isQuery(String sql) {
    for (String line : sql.split("\n")) {
      String code = line.strip();
      if (code.isEmpty() || code.startsWith("--")) {
        continue;
      }
      String upper = code.toUpperCase(Locale.ROOT);
      return upper.startsWith("SELECT") || upper.startsWith("WITH") || upper.startsWith("FROM");
    }
    return false;
  }

  private static void fail(List<String> problems) {
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("\n", problems));
    }
  }
}
