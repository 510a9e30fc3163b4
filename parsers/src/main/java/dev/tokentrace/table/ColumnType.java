package dev.tokentrace.table;

import java.time.Instant;

/**
 * The DuckDB types a stored column takes, each with the Java type its accessor returns (boxed; null
 * where the column is nullable). {@code TIMESTAMP} holds UTC instants, never local times.
 */
public enum ColumnType {
  VARCHAR(String.class),
  INTEGER(Integer.class),
  BIGINT(Long.class),
  DOUBLE(Double.class),
  BOOLEAN(Boolean.class),
  TIMESTAMP(Instant.class);

  private final Class<?> javaType;

  ColumnType(Class<?> javaType) {
    this.javaType = javaType;
  }

  /** The type as DuckDB spells it in DDL and in {@code information_schema.columns.data_type}. */
  public String sql() {
    return name();
  }

  /** What the accessor of a column of this type returns. */
  public Class<?> javaType() {
    return javaType;
  }
}
