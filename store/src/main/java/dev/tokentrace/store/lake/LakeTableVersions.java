package dev.tokentrace.store.lake;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Tables computed from the lake and rewritten whole at each computation ({@code
 * request_attribution}, which {@code correlate --lake} writes), kept as versions beside the sinks'
 * tables (docs/storage.md#versioned-tables). A write copies a query's rows with DuckDB's {@code
 * COPY … (FORMAT parquet)} to a temporary name, syncs it and renames it to {@code
 * _versions/<table>/<version>.<tag>.parquet}, then replaces the table's pointer {@code
 * _versions/<table>.json} the same way: <b>that rename is the commit</b>. A reader reads the
 * pointer once and then exactly the one file it names, so it sees a whole version or the previous
 * one, never half of one nor two at once. Versions that were replaced more than a grace period ago
 * are deleted by the next write, like a compaction's inputs, so a reader that read the pointer just
 * before it was replaced still finds its file.
 */
public final class LakeTableVersions {
  /** The directory of the versioned tables, under the lake's root. */
  public static final String DIRECTORY = "_versions";

  /**
   * The tables kept as versions, in the order readers get their views: the attribution ({@code
   * correlate --lake}, {@code spark-correlate}) and, written by {@code spark-correlate} with it,
   * its clock offsets and the report's stored results (docs/scale.md#stored-results).
   */
  public static final List<String> TABLES =
      List.of("request_attribution", "clock_offsets", "attribution_results");

  /** How long a replaced version stays for readers that read the pointer before it changed. */
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(60);

  /** The schema holding an empty copy of each versioned table in {@link Lake#openReader}. */
  static final String EMPTY_SCHEMA = "tokentrace_lake_empty";

  private static final Pattern FILE = Pattern.compile("(\\d{20})\\.([0-9a-f]+)\\.parquet");
  private static final String TEMP_PREFIX = "versions.";

  private LakeTableVersions() {}

  /**
   * One committed version of a table: what its pointer holds.
   *
   * @param table the table's name
   * @param version 1 for the first write, then one more per write
   * @param file the Parquet file's name under {@code _versions/<table>/}
   * @param rows rows in the file
   * @param written when the version was committed (ISO-8601, UTC)
   */
  public record Version(
      @JsonProperty("table") String table,
      @JsonProperty("version") long version,
      @JsonProperty("file") String file,
      @JsonProperty("rows") long rows,
      @JsonProperty("written") String written) {
    public Version {
      requireNonNull(table, "table is null");
      requireNonNull(file, "file is null");
      requireNonNull(written, "written is null");
    }

    /** The version's Parquet file. */
    public Path path(Path lake) {
      return lake.resolve(DIRECTORY).resolve(table).resolve(file).toAbsolutePath();
    }
  }

  /** What one {@link #write} did. */
  public record Written(Version version, int replacedDeleted, int leftoversDeleted) {}

  /**
   * The committed version of {@code table}, or null when none was ever written.
   *
   * @throws IllegalStateException naming the pointer when it cannot be read
   */
  public static @Nullable Version current(Path lake, String table) {
    Path pointer = pointer(lake, table);
    try {
      return LakeMarker.JSON.readValue(pointer.toFile(), Version.class);
    } catch (java.io.FileNotFoundException | NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      if (!Files.exists(pointer)) {
        return null;
      }
      throw new IllegalStateException(
          pointer.toAbsolutePath() + ": unreadable version pointer: " + e.getMessage(), e);
    }
  }

  /**
   * Writes the rows of {@code query} (run on {@code connection}) as the next version of {@code
   * table} and commits it; then deletes the versions replaced more than {@code grace} ago and what
   * a writer that crashed more than {@code grace} ago left (a temporary file, a version never
   * committed). One writer per lake and table is expected ({@code correlate --follow}); two at once
   * never corrupt a version, the last commit wins.
   *
   * @throws IllegalArgumentException naming the directory when it is not a tokentrace lake
   * @throws IOException when a file cannot be written or renamed (nothing was committed then)
   */
  public static Written write(
      Connection connection, Path lake, String table, String query, Duration grace)
      throws SQLException, IOException {
    requireNonNull(connection, "connection is null");
    requireNonNull(query, "query is null");
    LakeMarker.read(lake);
    if (!TABLES.contains(table)) {
      throw new IllegalArgumentException("not a versioned lake table: " + table);
    }
    Version previous = current(lake, table);
    long next = previous == null ? 1 : previous.version() + 1;
    String tag = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    String name = String.format("%020d.%s.parquet", next, tag);
    Path temp = LakeDirectories.temp(lake, TEMP_PREFIX + table);
    long rows;
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "COPY (" + query + ") TO " + Lake.literal(temp.toString()) + " (FORMAT parquet)");
      try (ResultSet count =
          statement.executeQuery(
              "SELECT count(*) FROM read_parquet(" + Lake.literal(temp.toString()) + ")")) {
        count.next();
        rows = count.getLong(1);
      }
      LakeDirectories.moveIntoPlace(temp, directory(lake, table).resolve(name));
    } finally {
      Files.deleteIfExists(temp);
    }
    Version version = new Version(table, next, name, rows, Instant.now().toString());
    Path pointerTemp = LakeDirectories.temp(lake, TEMP_PREFIX + table + ".json");
    try {
      Files.write(
          pointerTemp, LakeMarker.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(version));
      LakeDirectories.moveIntoPlace(pointerTemp, pointer(lake, table));
    } finally {
      Files.deleteIfExists(pointerTemp);
    }
    Instant cutoff = Instant.now().minus(grace);
    int replaced = deleteReplaced(lake, table, version, cutoff);
    int leftovers = deleteLeftovers(lake, table, version, cutoff);
    return new Written(version, replaced, leftovers);
  }

  /**
   * The SQL reading {@code version}'s rows: {@code SELECT * FROM read_parquet('…')}. With {@code
   * emptyTable} (a table of the current schema with no row), the rows are unioned to it by name, so
   * a version written before a column existed reads it as NULL.
   */
  public static String select(Path lake, Version version, @Nullable String emptyTable) {
    String read = "SELECT * FROM read_parquet(" + Lake.literal(version.path(lake).toString()) + ")";
    return emptyTable == null ? read : "SELECT * FROM " + emptyTable + " UNION ALL BY NAME " + read;
  }

  /**
   * Creates or replaces the view of each versioned table on {@code connection}: over the committed
   * version, or (none written yet) over the empty copy {@link Lake#openReader} made. A connection
   * that holds a base table of that name keeps it, and one without the empty copy and without a
   * version gets no view.
   */
  static void attachViews(Connection connection, Path lake) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String table : TABLES) {
        if (exists(statement, "main", table, "BASE TABLE")) {
          continue;
        }
        String empty =
            exists(statement, EMPTY_SCHEMA, table, "BASE TABLE")
                ? EMPTY_SCHEMA + "." + table
                : null;
        Version version = current(lake, table);
        String select =
            version != null ? select(lake, version, empty) : empty == null ? null : "FROM " + empty;
        if (select != null) {
          statement.execute("CREATE OR REPLACE VIEW main." + table + " AS " + select);
        }
      }
    }
  }

  /**
   * Moves each versioned table of a reader's database (created from {@code sql/schema/}) aside as
   * an empty copy in {@value #EMPTY_SCHEMA}, so that {@link #attachViews} can put views in its
   * place.
   */
  static void prepareReader(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA IF NOT EXISTS " + EMPTY_SCHEMA);
      for (String table : TABLES) {
        if (exists(statement, "main", table, "BASE TABLE")) {
          statement.execute(
              "CREATE OR REPLACE TABLE "
                  + EMPTY_SCHEMA
                  + "."
                  + table
                  + " AS FROM main."
                  + table
                  + " LIMIT 0");
          statement.execute("DROP TABLE main." + table);
        }
      }
    }
  }

  /** {@code CREATE OR REPLACE VIEW} lines of the versioned tables, for {@code sql --views}. */
  static String viewsSql(Path lake) {
    // the tables without a version first: comment lines after the last statement would make a
    // statement of their own for an engine that splits the text at ";\n", and fail there
    StringBuilder unwritten = new StringBuilder();
    StringBuilder sql = new StringBuilder();
    for (String table : TABLES) {
      Version version = current(lake, table);
      if (version == null) {
        unwritten
            .append("-- ")
            .append(table)
            .append(
                table.equals("request_attribution")
                    ? ": no version written yet (correlate --lake writes it)\n"
                    : ": no version written yet (spark-correlate writes it)\n");
      } else {
        sql.append("-- ")
            .append(table)
            .append(": version ")
            .append(version.version())
            .append(", ")
            .append(version.rows())
            .append(" rows, committed ")
            .append(version.written())
            .append('\n')
            .append("CREATE OR REPLACE VIEW ")
            .append(table)
            .append(" AS ")
            .append(select(lake, version, null))
            .append(";\n");
      }
    }
    return unwritten.append(sql).toString();
  }

  static Path directory(Path lake, String table) {
    return lake.resolve(DIRECTORY).resolve(table);
  }

  static Path pointer(Path lake, String table) {
    return lake.resolve(DIRECTORY).resolve(table + ".json");
  }

  /** A version file's number, or -1 for a name that is not one. */
  static long versionOf(Path file) {
    Matcher matcher = FILE.matcher(file.getFileName().toString());
    return matcher.matches() ? Long.parseLong(matcher.group(1)) : -1;
  }

  /**
   * Deletes each version older than {@code current} once a later committed version has existed
   * since before {@code cutoff}: a reader that read the pointer before that later version replaced
   * it has had the grace period to read its file.
   */
  private static int deleteReplaced(Path lake, String table, Version current, Instant cutoff)
      throws IOException {
    List<Path> files = versionFiles(lake, table);
    files.sort(Comparator.comparingLong(LakeTableVersions::versionOf).reversed());
    boolean laterIsOld = false;
    int deleted = 0;
    for (Path file : files) {
      long number = versionOf(file);
      if (number > current.version()
          || (number == current.version()
              && !file.getFileName().toString().equals(current.file()))) {
        continue; // a writer's version not committed (yet): deleteLeftovers' business
      }
      if (number < current.version() && laterIsOld) {
        if (Files.deleteIfExists(file)) {
          deleted++;
        }
        continue;
      }
      laterIsOld |= modified(file).isBefore(cutoff);
    }
    return deleted;
  }

  /** Deletes temporary files and uncommitted versions a crashed writer left before the cutoff. */
  private static int deleteLeftovers(Path lake, String table, Version current, Instant cutoff)
      throws IOException {
    List<Path> candidates = new ArrayList<>();
    for (Path file : versionFiles(lake, table)) {
      long number = versionOf(file);
      if (number > current.version()
          || (number == current.version()
              && !file.getFileName().toString().equals(current.file()))) {
        candidates.add(file);
      }
    }
    Path temps = lake.resolve(LakeDirectories.TEMP);
    if (Files.isDirectory(temps)) {
      try (Stream<Path> entries = Files.list(temps)) {
        entries
            .filter(entry -> entry.getFileName().toString().startsWith(TEMP_PREFIX + table + "."))
            .forEach(candidates::add);
      }
    }
    int deleted = 0;
    for (Path file : candidates) {
      try {
        if (modified(file).isBefore(cutoff) && Files.deleteIfExists(file)) {
          deleted++;
        }
      } catch (NoSuchFileException e) {
        // its writer finished or removed it meanwhile
      }
    }
    return deleted;
  }

  private static List<Path> versionFiles(Path lake, String table) throws IOException {
    Path dir = directory(lake, table);
    List<Path> files = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      entries.filter(entry -> versionOf(entry) > 0).forEach(files::add);
    }
    return files;
  }

  private static Instant modified(Path file) throws IOException {
    return Files.getLastModifiedTime(file).toInstant();
  }

  private static boolean exists(Statement statement, String schema, String table, String type)
      throws SQLException {
    try (ResultSet rows =
        statement.executeQuery(
            "SELECT count(*) FROM information_schema.tables WHERE table_catalog = current_database()"
                + " AND table_schema = "
                + Lake.literal(schema)
                + " AND table_name = "
                + Lake.literal(table)
                + " AND table_type = "
                + Lake.literal(type))) {
      rows.next();
      return rows.getLong(1) > 0;
    }
  }
}
