package dev.tokentrace.cli;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.SqlHeader;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeSnapshot;
import dev.tokentrace.store.query.ColumnSelection;
import dev.tokentrace.store.query.NamedQueryRunner;
import dev.tokentrace.store.query.QueryOutputFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tokentrace sql}: runs a named root-cause query of {@code sql/queries/}, a {@code .sql}
 * file, or SQL given with {@code -e}; all read-only, and reading no file but the database, the lake
 * and {@code --allow-path} paths.
 */
@Command(
    name = "sql",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Run a named root-cause query against the analysis database ('sql --list' shows the library"
          + " with the question each query answers), a .sql file, or SQL given with -e. Only one"
          + " read-only statement runs, in a read-only transaction: nothing changes the database. The"
          + " SQL reads no file but the database, the lake and --allow-path paths."
    })
final class SqlCommand implements Callable<Integer> {
  /** DuckDB's message for a file in a read_parquet list that does not exist (any more). */
  private static final String FILE_GONE = "No files found that match the pattern";

  private static final int LAKE_ATTEMPTS = 3;

  @Spec CommandSpec spec;

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Parameters(
      paramLabel = "NAME",
      arity = "0..1",
      description = "query name, e.g. slowest_requests (see --list), or a .sql file")
  @Nullable String name;

  @Option(
      names = "--lake",
      paramLabel = "DIR",
      description =
          "query the Parquet lake a 'sink --lake' writes (instead of --db), also while it runs:"
              + " each lake table is a view over the committed files as of the start of the query,"
              + " the other tables of the schema are empty")
  @Nullable Path lake;

  @Option(
      names = "--views",
      description =
          "with --lake: print one CREATE VIEW per lake table over the exact files a reader should"
              + " read now (the safe path for another engine; globbing the folder may count rows"
              + " twice during a compaction) and exit")
  boolean views;

  @Option(
      names = "--allow-path",
      paramLabel = "PATH",
      description =
          "let the SQL read this file or directory too (repeatable); by default it reads only the"
              + " database and the lake, never another file (docs/privacy.md#sql-file-access)")
  List<Path> allowPaths = new ArrayList<>();

  @Option(names = "--list", description = "list the named queries with their questions and params")
  boolean list;

  @Option(
      names = {"-e", "--execute"},
      paramLabel = "SQL",
      description = "run this SQL instead of a named query, e.g. -e \"SELECT * FROM runs\"")
  @Nullable String execute;

  @Option(
      names = {"-p", "--param"},
      paramLabel = "KEY=VALUE",
      description = "a query parameter (repeatable); :key in the SQL")
  List<String> params = new ArrayList<>();

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "table, csv, json or vertical (one 'column | value' line per column, a block per row)",
      defaultValue = "table")
  String format = "table";

  @Option(
      names = {"-x", "--vertical"},
      description =
          "print each row as a block of 'column | value' lines (psql's \\x), for wide results"
              + " such as slowest_requests; same as --format vertical")
  boolean vertical;

  @Option(
      names = "--columns",
      paramLabel = "NAMES",
      split = ",",
      description =
          "print only these columns, in this order (comma-separated; * matches any characters,"
              + " e.g. --columns request_key,'*_ms')")
  List<String> columns = new ArrayList<>();

  @Option(
      names = "--exclude",
      paramLabel = "NAMES",
      split = ",",
      description = "leave these columns out (comma-separated; * matches any characters)")
  List<String> exclude = new ArrayList<>();

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (list) {
      for (SqlHeader header : NamedQueryRunner.list()) {
        out.println(
            header.name().substring(header.name().indexOf('/') + 1) + ": " + header.description());
        if (!header.params().isEmpty()) {
          out.println("    params: " + params(header));
        }
      }
      out.flush();
      return ExitCodes.OK;
    }
    if (views) {
      if (lake == null) {
        throw new UsageException("--views needs --lake DIR");
      }
      out.print(Lake.viewsSql(LakeSnapshot.scan(lake)));
      out.flush();
      return ExitCodes.OK;
    }
    if (name == null && execute == null) {
      throw new UsageException("give a query NAME, a .sql file, -e SQL or --list");
    }
    if (name != null && execute != null) {
      throw new UsageException("give either a query NAME or -e SQL, not both");
    }
    if (vertical && spec.commandLine().getParseResult().hasMatchedOption("--format")) {
      throw new UsageException("give either --vertical or --format, not both");
    }
    QueryOutputFormat outputFormat =
        vertical ? QueryOutputFormat.VERTICAL : QueryOutputFormat.fromId(format);
    Map<String, String> values = NamedQueryRunner.parseParams(params);
    if (lake != null) {
      return queryLake(lake, outputFormat, values, out);
    }
    try (Database db = Database.openReadOnly(database.settings())) {
      db.confineFileAccess(allowPaths);
      query(db, outputFormat, values, out);
      out.flush();
      return ExitCodes.OK;
    }
  }

  /**
   * Runs the query on a fresh snapshot of the lake. A file a compaction deleted between the
   * snapshot and the query (its grace period over: docs/storage.md#compaction) fails the query; it
   * runs again on a new snapshot, and says so. The output is printed once the query succeeded.
   */
  private int queryLake(
      Path dir, QueryOutputFormat outputFormat, Map<String, String> values, PrintWriter out) {
    PrintWriter err = spec.commandLine().getErr();
    for (int attempt = 1; ; attempt++) {
      StringWriter buffer = new StringWriter();
      try (Database db = Lake.openReader(dir, database.settings());
          PrintWriter rows = new PrintWriter(buffer)) {
        db.confineFileAccess(concat(dir, allowPaths));
        query(db, outputFormat, values, rows);
        rows.flush();
        out.print(buffer);
        out.flush();
        return ExitCodes.OK;
      } catch (RuntimeException e) {
        if (attempt >= LAKE_ATTEMPTS || !String.valueOf(e.getMessage()).contains(FILE_GONE)) {
          throw e;
        }
        err.println(
            "sql: a lake file was merged away while the query ran; running it again on a fresh"
                + " snapshot");
        err.flush();
      }
    }
  }

  private void query(
      Database db, QueryOutputFormat outputFormat, Map<String, String> values, PrintWriter out) {
    NamedQueryRunner runner =
        new NamedQueryRunner(db).columns(new ColumnSelection(columns, exclude));
    if (execute != null) {
      runner.runText("-e", execute, values, outputFormat, out);
    } else if (isFile(name)) {
      runner.runText(name, read(Path.of(name)), values, outputFormat, out);
    } else {
      runner.run(name, values, outputFormat, out);
    }
  }

  /**
   * A query's parameters as {@code -p} takes them, each with its type and default as the query's
   * header documents them: {@code limit (INTEGER, default 20)}.
   */
  static String params(SqlHeader header) {
    List<String> described = new ArrayList<>();
    for (SqlHeader.Param param : header.params()) {
      described.add(
          param.name()
              + " ("
              + param.type()
              + (param.doc().isBlank() ? "" : ", " + param.doc().strip())
              + ")");
    }
    return String.join(", ", described);
  }

  private static List<Path> concat(Path first, List<Path> rest) {
    List<Path> all = new ArrayList<>(rest);
    all.add(0, first);
    return all;
  }

  /** A NAME that is an existing .sql file is run as a file, else looked up in the library. */
  private static boolean isFile(String name) {
    return name.endsWith(".sql") && Files.isRegularFile(Path.of(name));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
