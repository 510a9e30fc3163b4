package dev.tokentrace.store;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.jspecify.annotations.Nullable;

/**
 * Reading result values in one canonical form, and writing them as text. Timestamps are UTC by the
 * schema's convention and become {@link Instant}s; DuckDB's HUGEINT sums become longs; doubles are
 * written as plain decimals (never {@code 1.0E-4}).
 */
public final class SqlValues {
  private SqlValues() {}

  /** Column {@code column} (1-based) of the current row, canonicalized. */
  public static @Nullable Object read(ResultSet result, int column) throws SQLException {
    int type = result.getMetaData().getColumnType(column);
    if (type == Types.TIMESTAMP) {
      LocalDateTime value = result.getObject(column, LocalDateTime.class);
      return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }
    Object value = result.getObject(column);
    if (value instanceof BigInteger big) {
      return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.doubleValue();
    }
    if (value instanceof java.sql.Timestamp timestamp) {
      return timestamp.toLocalDateTime().toInstant(ZoneOffset.UTC);
    }
    return value;
  }

  /**
   * A value as text: empty for null, plain decimals for doubles (rounded to {@code decimals} places
   * when {@code decimals >= 0}, trailing zeros dropped), ISO-8601 for instants.
   */
  public static String text(@Nullable Object value, int decimals) {
    if (value == null) {
      return "";
    }
    if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      if (!Double.isFinite(number)) {
        return Double.toString(number);
      }
      BigDecimal decimal = BigDecimal.valueOf(number);
      if (decimals >= 0) {
        decimal = decimal.setScale(decimals, java.math.RoundingMode.HALF_EVEN);
      }
      String plain = decimal.stripTrailingZeros().toPlainString();
      return plain.equals("-0") ? "0" : plain;
    }
    return value.toString();
  }
}
