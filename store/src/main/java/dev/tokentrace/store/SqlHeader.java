package dev.tokentrace.store;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The header every SQL file starts with (docs/design.md#sql-files): {@code -- <name>: <question
 * answered>}, then {@code -- params: :name (TYPE, doc), ...} (or {@code none}) and {@code --
 * returns: columns}. Schema files need only the first line.
 */
public record SqlHeader(String name, String description, List<Param> params, String returns) {
  /** One named parameter: {@code :limit (INTEGER, default 10)} gives limit, INTEGER, default 10. */
  public record Param(String name, String type, String doc) {
    public Param {
      requireNonNull(name, "name is null");
      requireNonNull(type, "type is null");
      requireNonNull(doc, "doc is null");
    }

    /**
     * The values an enumerated parameter takes, as its doc lists them before the first {@code ;}
     * ({@code :group_by (VARCHAR, run | instance; default run)}); empty when it is not one.
     */
    public List<String> choices() {
      Matcher matcher = CHOICES.matcher(doc.split(";", 2)[0].strip());
      return matcher.matches() ? List.of(matcher.group(2).split(" \\| ")) : List.of();
    }

    /**
     * Whether the value is a comma-separated list of {@link #choices()} ({@code comma-separated
     * list of a | b}).
     */
    public boolean isList() {
      Matcher matcher = CHOICES.matcher(doc.split(";", 2)[0].strip());
      return matcher.matches() && matcher.group(1) != null;
    }
  }

  private static final Pattern CHOICES =
      Pattern.compile("(comma-separated list of )?([a-z_]+(?: \\| [a-z_]+)+)");

  private static final Pattern FIRST = Pattern.compile("-- ([a-z0-9_/]+): (.+)");
  private static final Pattern PARAM =
      Pattern.compile(":([a-z_][a-z0-9_]*) \\(([A-Z]+)(?:, ([^)]*))?\\)");

  public SqlHeader {
    requireNonNull(name, "name is null");
    requireNonNull(description, "description is null");
    params = List.copyOf(params);
    requireNonNull(returns, "returns is null");
  }

  /**
   * Parses the header of {@code sql/<name>.sql}.
   *
   * @throws IllegalArgumentException naming the file and what is missing
   */
  public static SqlHeader parse(String name, String sql) {
    List<String> block = headerBlock(sql);
    String where = "sql/" + name + ".sql: header: ";
    Matcher first = FIRST.matcher(block.isEmpty() ? "" : block.get(0));
    if (!first.matches()) {
      throw new IllegalArgumentException(where + "first line must be '-- " + name + ": <what>'");
    }
    if (!first.group(1).equals(name)) {
      throw new IllegalArgumentException(
          where + "names '" + first.group(1) + "', not '" + name + "'");
    }
    if (name.startsWith("schema/")) {
      return new SqlHeader(name, first.group(2).strip(), List.of(), "");
    }
    String params = section(block, "params:", "returns:", where);
    String returns = section(block, "returns:", null, where);
    return new SqlHeader(name, first.group(2).strip(), paramsOf(params), returns);
  }

  /** The parameter names, in header order. */
  public List<String> paramNames() {
    return params.stream().map(Param::name).toList();
  }

  private static List<String> headerBlock(String sql) {
    List<String> block = new ArrayList<>();
    for (String line : sql.split("\n", -1)) {
      if (!line.startsWith("--")) {
        break;
      }
      block.add(line.stripTrailing());
    }
    return block;
  }

  /**
   * The text from the line starting with {@code -- key} up to the line starting with {@code end}.
   */
  private static String section(
      List<String> block, String key, @Nullable String end, String where) {
    StringBuilder text = new StringBuilder();
    boolean inside = false;
    for (String line : block) {
      String body = line.substring(2).strip();
      if (body.startsWith(key)) {
        inside = true;
        body = body.substring(key.length());
      } else if (inside
          && (body.isEmpty()
              || (end != null && body.startsWith(end))
              || body.matches("[A-Za-z]+:.*"))) {
        break;
      }
      if (inside) {
        text.append(' ').append(body.strip());
      }
    }
    if (!inside) {
      throw new IllegalArgumentException(where + "missing '-- " + key + "' line");
    }
    return text.toString().strip();
  }

  private static List<Param> paramsOf(String text) {
    List<Param> params = new ArrayList<>();
    Matcher matcher = PARAM.matcher(text);
    while (matcher.find()) {
      String doc = matcher.group(3) == null ? "" : matcher.group(3).strip();
      params.add(new Param(matcher.group(1), matcher.group(2), doc));
    }
    return params;
  }
}
