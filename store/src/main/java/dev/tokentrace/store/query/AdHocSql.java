package dev.tokentrace.store.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.SqlHeader;
import dev.tokentrace.store.SqlParams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.statement.ColonPrefixSqlParser;

/**
 * SQL a user gives to {@code tokentrace sql} ({@code -e} or a file): its parameters, and the check
 * that it is one statement that only reads. DuckDB's own parser decides ({@code json_serialize_sql}
 * serializes SELECT statements only, DESCRIBE and SHOW among them), so no homemade lexer can be
 * fooled by comments or quoting; the statement then runs in a read-only transaction as well.
 */
final class AdHocSql {
  private static final Pattern FIRST = Pattern.compile("-- ([a-z0-9_/]+): .+");
  private static final ObjectMapper JSON = new ObjectMapper();

  private AdHocSql() {}

  /**
   * The parameters the text uses: typed as its header declares them when it has one ({@code --
   * name: question}, {@code -- params: :x (INTEGER, ...)}), else as VARCHAR.
   */
  static List<SqlHeader.Param> params(String sql) {
    List<SqlHeader.Param> declared = new ArrayList<>();
    Matcher first = FIRST.matcher(sql.lines().findFirst().orElse(""));
    if (first.matches()) {
      try {
        declared.addAll(SqlHeader.parse(first.group(1), sql).params());
      } catch (IllegalArgumentException e) {
        // a partial header (no params or returns line): the text's parameters are bound as text
        declared.clear();
      }
    }
    List<SqlHeader.Param> params = new ArrayList<>();
    for (String name : SqlParams.namesIn(sql)) {
      params.add(
          declared.stream()
              .filter(param -> param.name().equals(name))
              .findFirst()
              .orElse(new SqlHeader.Param(name, "VARCHAR", "")));
    }
    return params;
  }

  /**
   * @throws IllegalArgumentException when the text is not exactly one read-only statement
   */
  static void requireReadOnly(Database database, String origin, String sql) {
    String statement = new ColonPrefixSqlParser().parse(sql, null).getSql();
    String serialized =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery("SELECT json_serialize_sql(:statement)")
                        .bind("statement", statement)
                        .mapTo(String.class)
                        .one());
    JsonNode tree;
    try {
      tree = JSON.readTree(serialized);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read DuckDB's parse of " + origin, e);
    }
    if (tree.path("error").asBoolean(true)) {
      String why = tree.path("error_message").asText("not a query");
      throw new IllegalArgumentException(
          origin
              + ": `sql` runs one read-only query (SELECT, WITH, FROM, DESCRIBE, SHOW) and never"
              + " changes the database: "
              + (why.startsWith("Only SELECT") ? "this is not a query" : why));
    }
    if (tree.path("statements").size() != 1) {
      throw new IllegalArgumentException(
          origin
              + ": `sql` runs one query at a time; this text has "
              + tree.path("statements").size()
              + " statements");
    }
  }
}
