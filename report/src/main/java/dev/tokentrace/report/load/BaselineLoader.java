package dev.tokentrace.report.load;

import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.query.QueryRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Reads the report's metrics from another tokentrace database for {@code --baseline}: the file is
 * attached read-only (DuckDB {@code ATTACH ... (READ_ONLY)}, the path bound as a parameter) and the
 * very same SQL files run against it with {@code USE}, so both sides have one definition. The
 * baseline's stored attribution is read as it is (its rules are those of its last {@code correlate}
 * or {@code report}); nothing is written to it.
 */
public final class BaselineLoader {
  /** The catalog name of the attached baseline; unlikely to clash with a user's file name. */
  static final String ALIAS = "tokentrace_baseline";

  private BaselineLoader() {}

  /**
   * @throws IllegalArgumentException when the file does not exist (a usage error)
   * @throws IllegalStateException naming the file when DuckDB cannot attach or query it
   */
  public static ReportData.Baseline load(Database database, Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("--baseline " + file + ": no such file");
    }
    try {
      return database.jdbi().withHandle(handle -> attached(handle, file));
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "cannot read the baseline " + file + " (a tokentrace DuckDB file?): " + rootMessage(e),
          e);
    }
  }

  private static ReportData.Baseline attached(Handle handle, Path file) {
    String main = handle.createQuery("SELECT current_database()").mapTo(String.class).one();
    handle
        .createUpdate("ATTACH :path AS " + ALIAS + " (READ_ONLY)")
        .bind("path", file.toAbsolutePath().toString())
        .execute();
    try {
      handle.execute("USE " + ALIAS);
      QueryRows.registerInstants(handle);
      return new ReportData.Baseline(
          file.toString(),
          ReportDataLoader.coreMetrics(handle),
          ReportDataLoader.components(handle, List.of("all")),
          QueryRows.list(handle, ReportQueries.THROUGHPUT, ReportEvidence.Throughput.class),
          ReportDataLoader.quality(handle),
          hasConfig(handle)
              ? QueryRows.list(
                  handle, ReportQueries.ENVIRONMENT_CONFIG, ReportEvidence.ConfigRow.class)
              : List.of());
    } finally {
      // the catalog name comes from DuckDB itself (the main file's name); quoted as an identifier
      handle.execute("USE \"" + main.replace("\"", "\"\"") + "\"");
      handle.execute("DETACH " + ALIAS);
    }
  }

  /**
   * Whether the baseline has the server_config table: files written before it existed have none,
   * and their configuration is then reported as unknown rather than failing the comparison.
   */
  private static boolean hasConfig(Handle handle) {
    String sql = SqlCatalog.get(ReportQueries.HAS_SERVER_CONFIG);
    return handle.createQuery(sql).mapTo(Boolean.class).one();
  }

  private static String rootMessage(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
    return message.lines().findFirst().orElse(message);
  }
}
