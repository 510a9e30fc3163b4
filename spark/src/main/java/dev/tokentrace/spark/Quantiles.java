package dev.tokentrace.spark;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;
import org.jspecify.annotations.Nullable;
import scala.collection.Seq;

/**
 * DuckDB's continuous quantiles, for Spark: the median and the median absolute deviation of a
 * group's values, interpolated as DuckDB's {@code quantile_cont} does (docs/scale.md#dialect):
 * position {@code (n - 1) * q}, {@code lo * (1 - d) + hi * d} with {@code d = position -
 * floor(position)}. Spark's own {@code percentile} interpolates with arithmetic of its own, not
 * promised to round alike.
 */
public final class Quantiles {
  private Quantiles() {}

  /** Registers {@code tt_median(array<double>)} and {@code tt_mad(array<double>)}. */
  public static void register(SparkSession spark) {
    spark
        .udf()
        .register(
            "tt_median",
            (UDF1<Seq<Double>, Double>) values -> median(sorted(values)),
            DataTypes.DoubleType);
    spark
        .udf()
        .register(
            "tt_mad",
            (UDF1<Seq<Double>, Double>) values -> mad(sorted(values)),
            DataTypes.DoubleType);
  }

  private static double[] sorted(@Nullable Seq<Double> values) {
    if (values == null) {
      return new double[0];
    }
    List<Double> list = scala.jdk.javaapi.CollectionConverters.asJava(values);
    double[] out = new double[list.size()];
    int n = 0;
    for (Double value : list) {
      if (value != null) {
        out[n++] = value;
      }
    }
    out = Arrays.copyOf(out, n);
    Arrays.sort(out);
    return out;
  }

  /** The quantile {@code q} of sorted values, DuckDB's interpolation; null when empty. */
  static @Nullable Double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return null;
    }
    double position = (sorted.length - 1) * q;
    int floor = (int) Math.floor(position);
    int ceil = (int) Math.ceil(position);
    if (floor == ceil) {
      return sorted[floor];
    }
    double lo = sorted[floor];
    double hi = sorted[ceil];
    double fraction = position - floor;
    // DuckDB 2.0's order of operations: lo + (hi - lo) * d rounds differently in the last bit
    // (docs/scale.md#dialect)
    return lo * (1 - fraction) + hi * fraction;
  }

  static @Nullable Double median(double[] sorted) {
    return quantile(sorted, 0.5);
  }

  /** The median of the absolute deviations from the median (DuckDB's {@code mad}). */
  static @Nullable Double mad(double[] sorted) {
    Double median = median(sorted);
    if (median == null) {
      return null;
    }
    double[] deviations = new double[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      deviations[i] = Math.abs(sorted[i] - median);
    }
    Arrays.sort(deviations);
    return median(deviations);
  }
}
