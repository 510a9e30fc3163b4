package dev.tokentrace.store.query;

import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.SqlHeader;
import dev.tokentrace.store.SqlParams;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.reflect.ConstructorMapper;
import org.jdbi.v3.core.statement.Query;
import org.jspecify.annotations.Nullable;

/**
 * Runs a named SQL file on a handle and maps its rows to a record by column name. Every parameter
 * its header declares is bound, from {@code params} (text, converted by the declared type) or as a
 * typed NULL, so the file's own defaults apply.
 */
public final class QueryRows {
  private QueryRows() {}

  /** Maps TIMESTAMP columns (UTC by the schema's convention) to {@link Instant}. */
  public static void registerInstants(Handle handle) {
    handle.registerColumnMapper(
        Instant.class,
        (result, column, context) -> utc(result.getObject(column, LocalDateTime.class)));
  }

  public static <T> List<T> list(Handle handle, String name, Class<T> type) {
    return list(handle, name, type, Map.of());
  }

  public static <T> List<T> list(
      Handle handle, String name, Class<T> type, Map<String, String> params) {
    return query(handle, name, params).map(ConstructorMapper.of(type)).list();
  }

  public static <T> T one(Handle handle, String name, Class<T> type) {
    return query(handle, name, Map.of()).map(ConstructorMapper.of(type)).one();
  }

  private static Query query(Handle handle, String name, Map<String, String> params) {
    String sql = SqlCatalog.get(name);
    Query query = handle.createQuery(sql);
    for (SqlHeader.Param param : SqlHeader.parse(name, sql).params()) {
      SqlParams.bind(query, param.name(), param.type(), params.get(param.name()));
    }
    return query;
  }

  private static @Nullable Instant utc(@Nullable LocalDateTime value) {
    return value == null ? null : value.toInstant(ZoneOffset.UTC);
  }
}
