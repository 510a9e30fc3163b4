package dev.tokentrace.correlate.live;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.LakeTableVersions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The analysis file's {@code request_attribution}, written to the lake as its next version
 * (docs/live.md#the-attribution-in-the-lake): readers of the lake in any process ({@code sql
 * --lake}, {@code serve --lake}, Python) then see the attribution while {@code correlate --follow}
 * runs, each version whole, never half of one.
 */
public final class LakeAttribution {
  /** The table written. */
  public static final String TABLE = "request_attribution";

  private LakeAttribution() {}

  /**
   * Writes {@code database}'s {@code request_attribution}, all of it, as the lake's next version.
   *
   * @throws IllegalArgumentException naming the directory when it is not a tokentrace lake
   * @throws IllegalStateException naming the lake when DuckDB or the file system fails (the
   *     previous version stays the lake's)
   */
  public static LakeTableVersions.Written write(Database database, Path lake, Duration grace) {
    requireNonNull(database, "database is null");
    requireNonNull(lake, "lake is null");
    try (Connection connection = database.newConnection()) {
      return LakeTableVersions.write(connection, lake, TABLE, "FROM " + TABLE, grace);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "lake " + lake + ": cannot write " + TABLE + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("lake " + lake + ": cannot write " + TABLE, e);
    }
  }

  /** One line saying what {@link #write} did. */
  public static String describe(Path lake, LakeTableVersions.Written written) {
    StringBuilder text =
        new StringBuilder(TABLE)
            .append(" written to the lake ")
            .append(lake)
            .append(" as version ")
            .append(written.version().version())
            .append(" (")
            .append(written.version().rows())
            .append(" rows)");
    if (written.replacedDeleted() > 0) {
      text.append("; ").append(written.replacedDeleted()).append(" replaced version(s) deleted");
    }
    if (written.leftoversDeleted() > 0) {
      text.append("; ")
          .append(written.leftoversDeleted())
          .append(" file(s) an interrupted write left removed");
    }
    return text.toString();
  }
}
