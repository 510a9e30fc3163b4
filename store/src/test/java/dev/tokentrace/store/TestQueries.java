package dev.tokentrace.store;

import java.util.List;
import java.util.Map;

/** Short reads for tests: one value, one column, or rows as maps. */
public final class TestQueries {
  private TestQueries() {}

  public static <T> T one(Database database, Class<T> type, String sql) {
    return database.jdbi().withHandle(h -> h.createQuery(sql).mapTo(type).one());
  }

  public static <T> List<T> column(Database database, Class<T> type, String sql) {
    return database.jdbi().withHandle(h -> h.createQuery(sql).mapTo(type).list());
  }

  public static List<Map<String, Object>> rows(Database database, String sql) {
    return database.jdbi().withHandle(h -> h.createQuery(sql).mapToMap().list());
  }

  public static void execute(Database database, String sql) {
    database.jdbi().useHandle(h -> h.execute(sql));
  }
}
