package dev.tokentrace.store.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which result columns {@code tokentrace sql} prints, for wide results ({@code slowest_requests}
 * has hundreds of columns): {@code --columns} keeps the named ones in the order given, {@code
 * --exclude} drops some; names are case-insensitive and {@code *} matches any run of characters
 * ({@code *_ms}). A name or pattern that matches no column is an error listing the columns.
 *
 * @param include column names or patterns to keep, in this order; empty keeps every column
 * @param exclude column names or patterns to drop
 */
public record ColumnSelection(List<String> include, List<String> exclude) {
  /** Every column, as the query returns them. */
  public static final ColumnSelection ALL = new ColumnSelection(List.of(), List.of());

  public ColumnSelection {
    include = clean(include);
    exclude = clean(exclude);
  }

  /**
   * The indexes (0-based) of the columns to print, in print order.
   *
   * @throws IllegalArgumentException naming every name or pattern that matches no column
   */
  public List<Integer> apply(List<String> columns) {
    List<String> problems = new ArrayList<>();
    List<Integer> chosen = new ArrayList<>();
    if (include.isEmpty()) {
      for (int i = 0; i < columns.size(); i++) {
        chosen.add(i);
      }
    } else {
      for (String wanted : include) {
        Pattern pattern = pattern(wanted);
        boolean found = false;
        for (int i = 0; i < columns.size(); i++) {
          if (pattern.matcher(columns.get(i)).matches()) {
            found = true;
            if (!chosen.contains(i)) {
              chosen.add(i);
            }
          }
        }
        if (!found) {
          problems.add("--columns " + wanted);
        }
      }
    }
    for (String unwanted : exclude) {
      Pattern pattern = pattern(unwanted);
      boolean found = chosen.removeIf(i -> pattern.matcher(columns.get(i)).matches());
      if (!found && columns.stream().noneMatch(c -> pattern.matcher(c).matches())) {
        problems.add("--exclude " + unwanted);
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          String.join(", ", problems)
              + ": no such column (the result has: "
              + String.join(", ", columns)
              + ")");
    }
    return chosen;
  }

  private static Pattern pattern(String glob) {
    String regex =
        Arrays.stream(glob.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*"));
    return Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
  }

  private static List<String> clean(List<String> names) {
    List<String> cleaned = new ArrayList<>();
    for (String name : names) {
      for (String part : name.split(",")) {
        if (!part.isBlank()) {
          cleaned.add(part.strip().toLowerCase(Locale.ROOT));
        }
      }
    }
    return List.copyOf(cleaned);
  }
}
