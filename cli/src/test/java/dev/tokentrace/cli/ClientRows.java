package dev.tokentrace.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * The rows of a simulated client_timings.csv or truth.csv as maps, and the statistics the known
 * answers are computed with, independently of the SQL under test: quantiles interpolated as
 * DuckDB's quantile_cont, least-squares slopes.
 */
final class ClientRows {
  private ClientRows() {}

  static List<Map<String, String>> read(Path file) {
    try (Reader reader = Files.newBufferedReader(file)) {
      List<Map<String, String>> rows = new ArrayList<>();
      for (CSVRecord record :
          CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(reader)) {
        rows.add(record.toMap());
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  static double number(Map<String, String> row, String column) {
    return Double.parseDouble(row.get(column));
  }

  static List<Map<String, String>> where(
      List<Map<String, String>> rows, Predicate<Map<String, String>> rule) {
    return rows.stream().filter(rule).toList();
  }

  /** quantile_cont: linear interpolation between the closest ranks of the sorted values. */
  static double quantile(List<Double> values, double fraction) {
    List<Double> sorted = values.stream().sorted().toList();
    double position = fraction * (sorted.size() - 1);
    int low = (int) Math.floor(position);
    int high = (int) Math.ceil(position);
    return sorted.get(low) + (position - low) * (sorted.get(high) - sorted.get(low));
  }

  static double quantile(
      List<Map<String, String>> rows, ToDoubleFunction<Map<String, String>> value, double p) {
    return quantile(rows.stream().map(row -> value.applyAsDouble(row)).toList(), p);
  }

  /** The least-squares slope of y over x. */
  static double slope(
      List<Map<String, String>> rows,
      ToDoubleFunction<Map<String, String>> x,
      ToDoubleFunction<Map<String, String>> y) {
    double meanX = rows.stream().mapToDouble(x).average().orElseThrow();
    double meanY = rows.stream().mapToDouble(y).average().orElseThrow();
    double covariance = 0;
    double variance = 0;
    for (Map<String, String> row : rows) {
      covariance += (x.applyAsDouble(row) - meanX) * (y.applyAsDouble(row) - meanY);
      variance += Math.pow(x.applyAsDouble(row) - meanX, 2);
    }
    return covariance / variance;
  }

  /** The request ids of the {@code n} rows with the largest value, largest first. */
  static List<String> top(
      List<Map<String, String>> rows, ToDoubleFunction<Map<String, String>> value, int n) {
    return rows.stream()
        .sorted(Comparator.comparingDouble(value).reversed())
        .limit(n)
        .map(row -> row.get("request_id"))
        .toList();
  }
}
