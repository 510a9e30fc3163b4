package dev.tokentrace.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.jdbi.v3.core.statement.SqlStatement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every SQL file: header, no {@code //} or block comments, and it runs on the empty schema. */
final class SqlCatalogTest {
  private static Database database;

  @BeforeAll
  static void open() {
    database = Database.open(DatabaseSettings.inMemory());
  }

  @AfterAll
  static void close() {
    database.close();
  }

  /** Every {@code .sql} under the packaged {@code sql/} directory, as catalog names. */
  /**
   * The scripts an incremental attribution round runs first (Attributor), in order; its two
   * bookkeeping tables come from the schema (sql/schema/010_incremental_state.sql).
   */
  private static final List<String> INCREMENTAL_ROUND = List.of(Queries.INCREMENTAL_SCRATCH);

  static Stream<String> sqlFiles() throws IOException, URISyntaxException {
    Path root = Path.of(SqlCatalogTest.class.getResource("/sql").toURI());
    List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      files
          .filter(file -> file.toString().endsWith(".sql"))
          .forEach(
              file -> {
                String relative = root.relativize(file).toString().replace('\\', '/');
                names.add(relative.substring(0, relative.length() - ".sql".length()));
              });
    }
    assertThat(names).contains(Queries.PER_REQUEST, "schema/001_events");
    return names.stream().sorted();
  }

  @ParameterizedTest
  @MethodSource("sqlFiles")
  void hasTheHeader(String name) {
    SqlHeader header = SqlHeader.parse(name, SqlCatalog.get(name));
    assertThat(header.name()).isEqualTo(name);
    assertThat(header.description()).isNotBlank();
    if (!name.startsWith("schema/")) {
      assertThat(header.returns()).isNotBlank();
    }
  }

  @ParameterizedTest
  @MethodSource("sqlFiles")
  void hasNoDoubleSlashOrBlockCommentOutsideLineComments(String name) {
    assertThat(codeOutsideCommentsAndStrings(SqlCatalog.get(name)))
        .as("sql/%s.sql outside -- comments and string literals", name)
        .doesNotContain("//")
        .doesNotContain("/*")
        .doesNotContain("#");
  }

  @ParameterizedTest
  @MethodSource("sqlFiles")
  void declaresExactlyTheParametersItUses(String name) {
    String sql = SqlCatalog.get(name);
    SqlHeader header = SqlHeader.parse(name, sql);
    assertThat(header.paramNames())
        .as("params in the header of sql/%s.sql", name)
        .containsExactlyInAnyOrderElementsOf(SqlParams.namesIn(sql));
  }

  @ParameterizedTest
  @MethodSource("sqlFiles")
  void runsOnTheEmptySchema(String name) {
    String sql = SqlCatalog.get(name);
    SqlHeader header = SqlHeader.parse(name, sql);
    database
        .jdbi()
        .useHandle(
            handle -> {
              if (name.startsWith("schema/") || INCREMENTAL_ROUND.contains(name)) {
                Database.execute(name, handle.getConnection()); // idempotent: IF NOT EXISTS
                return;
              }
              if (sql.contains("temporary table")) {
                // incremental attribution's queries read the tables its round creates first
                for (String script : INCREMENTAL_ROUND) {
                  Database.execute(script, handle.getConnection());
                }
              }
              if ((sql.contains("pd_halves") || sql.contains("attribution_keys"))
                  && !name.equals(Queries.PD_HALVES)) {
                // the P/D pairs the key table and per_request.sql read, made first
                handle.execute(SqlCatalog.get(Queries.PD_HALVES));
              }
              if (sql.contains("attribution_keys") && !name.equals(Queries.REQUEST_KEYS)) {
                // the attribution's statements read the per-key table its transaction makes first
                handle.execute(SqlCatalog.get(Queries.REQUEST_KEYS));
              }
              if (isQuery(sql)) {
                var query = handle.createQuery(sql);
                bindNulls(query, header);
                assertThat(query.mapToMap().list()).isNotNull();
              } else {
                var update = handle.createUpdate(sql);
                bindNulls(update, header);
                assertThat(update.execute()).isZero();
              }
            });
  }

  @Test
  void loadsSqlVerbatimWithComments() {
    assertThat(SqlCatalog.get(Queries.PER_REQUEST)).startsWith("-- attribution/per_request: ");
  }

  @Test
  void cachesTheText() {
    assertThat(SqlCatalog.get(Queries.CSV_ROWS)).isSameAs(SqlCatalog.get(Queries.CSV_ROWS));
  }

  @Test
  void failsWithThePathWhenTheFileIsMissing() {
    assertThatThrownBy(() -> SqlCatalog.get("attribution/no_such_query"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no SQL file sql/attribution/no_such_query.sql on the classpath");
  }

  @Test
  void rejectsNamesWithDotsOrExtensions() {
    assertThatThrownBy(() -> SqlCatalog.get("attribution/per_request.sql"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad SQL name 'attribution/per_request.sql'");
  }

  @Test
  void listsTheQueryLibrary() {
    assertThat(SqlCatalog.names("queries"))
        .contains(
            Queries.ATTRIBUTION_SUMMARY,
            Queries.CONCURRENCY_SENSITIVITY,
            Queries.SLOWEST_REQUESTS,
            Queries.UNMATCHED_REQUESTS)
        .isSorted();
    assertThat(SqlCatalog.names("no_such_dir")).isEmpty();
  }

  @Test
  void schemaFollowsTheIndex() {
    assertThat(SqlCatalog.schemaNames())
        .startsWith("schema/001_events", "schema/002_client_timing")
        .contains("schema/005_attribution");
  }

  @Test
  void theCommentScannerSeesCodeOnly() {
    assertThat(codeOutsideCommentsAndStrings("SELECT 7 // 2 -- not this // one"))
        .contains("//")
        .doesNotContain("one");
    assertThat(codeOutsideCommentsAndStrings("SELECT '//' -- a // b\nFROM t")).doesNotContain("//");
  }

  static boolean isQuery(String sql) {
    String code = codeOutsideCommentsAndStrings(sql).strip().toUpperCase(Locale.ROOT);
    return code.startsWith("SELECT") || code.startsWith("WITH");
  }

  private static void bindNulls(SqlStatement<?> statement, SqlHeader header) {
    for (SqlHeader.Param param : header.params()) {
      SqlParams.bind(statement, param.name(), param.type(), null);
    }
  }

  /** The SQL with {@code --} comments and {@code '...'} literals blanked out. */
  static String codeOutsideCommentsAndStrings(String sql) {
    StringBuilder code = new StringBuilder();
    boolean inString = false;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (inString) {
        inString = c != '\'';
        code.append(' ');
      } else if (c == '\'') {
        inString = true;
        code.append(' ');
      } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? sql.length() : end;
        code.append('\n');
      } else {
        code.append(c);
      }
    }
    return code.toString();
  }
}
