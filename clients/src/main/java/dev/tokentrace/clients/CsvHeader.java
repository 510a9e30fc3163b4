package dev.tokentrace.clients;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.measure.ClientCsv;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The header of our client CSV ({@link ClientCsv}): column names (trimmed, lower-cased) and where
 * each known column is. Unknown columns are allowed and ignored; {@link #unknown()} lists them for
 * a warning.
 */
record CsvHeader(List<String> names, Map<String, Integer> index, List<String> unknown) {
  static final List<String> REQUIRED = ClientCsv.REQUIRED;
  static final List<String> OPTIONAL = ClientCsv.OPTIONAL;

  CsvHeader {
    names = List.copyOf(names);
    index = Map.copyOf(index);
    unknown = List.copyOf(unknown);
  }

  /**
   * The header for these raw names.
   *
   * @throws BadField with a {@code header: ...} reason when a name is empty or repeated, or a
   *     required column is missing
   */
  static CsvHeader of(List<String> raw) throws BadField {
    List<String> names = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    Set<String> unknown = new LinkedHashSet<>();
    for (String name : raw) {
      String normalized = normalize(name);
      if (normalized.isEmpty()) {
        throw new BadField("header: empty column name (file skipped)");
      }
      if (index.containsKey(normalized)) {
        throw new BadField("header: duplicate column '" + normalized + "' (file skipped)");
      }
      index.put(normalized, names.size());
      names.add(normalized);
      if (!REQUIRED.contains(normalized)
          && !OPTIONAL.contains(normalized)
          && !ClientCsv.MATRIX.contains(normalized)) {
        unknown.add(normalized);
      }
    }
    List<String> missing = REQUIRED.stream().filter(column -> !index.containsKey(column)).toList();
    if (!missing.isEmpty()) {
      throw new BadField(
          "header: missing required column(s) " + String.join(", ", missing) + " (file skipped)");
    }
    return new CsvHeader(names, index, List.copyOf(unknown));
  }

  static String normalize(String name) {
    return name.strip().toLowerCase(Locale.ROOT);
  }

  /** The raw value of {@code column} in {@code fields}, or "" when the file has no such column. */
  String value(List<String> fields, String column) {
    @Nullable Integer position = index.get(requireNonNull(column));
    return position == null ? "" : fields.get(position);
  }

  /** True when {@code fields} repeat this header (two files concatenated). */
  boolean isRepeatedBy(List<String> fields) {
    if (fields.size() != names.size()) {
      return false;
    }
    for (int i = 0; i < fields.size(); i++) {
      if (!normalize(fields.get(i)).equals(names.get(i))) {
        return false;
      }
    }
    return true;
  }
}
