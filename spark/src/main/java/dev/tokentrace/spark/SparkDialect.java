package dev.tokentrace.spark;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where the DuckDB dialect of {@code sql/attribution/} becomes Spark SQL
 * (docs/scale.md#dialect): each difference is one rewrite below, each with its own test ({@code
 * SparkDialectTest}). The SQL files stay the source; nothing here restates a formula.
 *
 * <p>A statement ({@code CREATE OR REPLACE TEMP TABLE t AS WITH ...} or {@code INSERT INTO t BY
 * NAME WITH ...}) becomes a {@link Plan}: one step per common table expression, in order, then the
 * final query, each registered by the runner as a temporary view of that name. A step whose body is
 * a {@code UNION ALL BY NAME} (which Spark SQL lacks) is split into its branches, which the runner
 * unions with {@code Dataset.unionByName(other, true)}: columns by name in first-seen order,
 * missing ones NULL, as DuckDB does.
 */
public final class SparkDialect {
  private SparkDialect() {}

  /**
   * One view the runner makes: the union by name of {@code branches} (one branch: just that query),
   * registered as {@code view}.
   */
  public record Step(String view, List<String> branches) {
    public Step {
      requireNonNull(view, "view is null");
      branches = List.copyOf(branches);
    }
  }

  /** The steps of one statement; the last one's view is the statement's target table. */
  public record Plan(List<Step> steps) {
    public Plan {
      steps = List.copyOf(steps);
    }

    /** The table the statement writes (its last step's view). */
    public String target() {
      return steps.get(steps.size() - 1).view();
    }
  }

  private static final Pattern CREATE_TEMP =
      Pattern.compile(
          "^\\s*CREATE\\s+OR\\s+REPLACE\\s+TEMP(?:ORARY)?\\s+TABLE\\s+(\\w+)\\s+AS\\s+",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern INSERT_BY_NAME =
      Pattern.compile("^\\s*INSERT\\s+INTO\\s+(\\w+)\\s+BY\\s+NAME\\s+", Pattern.CASE_INSENSITIVE);
  private static final Pattern CTE_HEAD =
      Pattern.compile(
          "\\G\\s*,?\\s*(\\w+)\\s+AS\\s+(?:NOT\\s+)?(?:MATERIALIZED\\s+)?\\(",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern UNION_BY_NAME =
      Pattern.compile("\\bUNION\\s+ALL\\s+BY\\s+NAME\\b", Pattern.CASE_INSENSITIVE);

  /**
   * Translates one statement of {@code sql/attribution/} (comments allowed) into Spark steps.
   *
   * @throws IllegalArgumentException when the statement is neither form this class knows
   */
  public static Plan plan(String duckdbSql) {
    String sql = stripComments(requireNonNull(duckdbSql, "duckdbSql is null")).strip();
    if (sql.endsWith(";")) {
      sql = sql.substring(0, sql.length() - 1).strip();
    }
    String target;
    Matcher head = CREATE_TEMP.matcher(sql);
    if (!head.find()) {
      head = INSERT_BY_NAME.matcher(sql);
      if (!head.find()) {
        throw new IllegalArgumentException(
            "not a CREATE OR REPLACE TEMP TABLE ... AS or INSERT INTO ... BY NAME statement: "
                + sql.substring(0, Math.min(80, sql.length())));
      }
    }
    target = head.group(1);
    String query = sql.substring(head.end());
    List<Step> steps = new ArrayList<>();
    if (startsWithWord(query, "WITH")) {
      Matcher cte = CTE_HEAD.matcher(query);
      int at = query.toUpperCase(Locale.ROOT).indexOf("WITH") + 4;
      cte.region(at, query.length());
      while (cte.find()) {
        int open = cte.end() - 1;
        int close = matchingParen(query, open);
        steps.add(step(cte.group(1), query.substring(open + 1, close)));
        at = close + 1;
        cte = CTE_HEAD.matcher(query);
        cte.region(at, query.length());
      }
      query = query.substring(at);
    }
    steps.add(step(target, query));
    return new Plan(steps);
  }

  private static Step step(String view, String body) {
    List<String> branches = new ArrayList<>();
    for (String branch : splitTopLevel(body, UNION_BY_NAME)) {
      branches.add(expressions(branch.strip()));
    }
    return new Step(view, branches);
  }

  /**
   * Translates one query of {@code sql/} that returns rows (a {@code SELECT}, comments allowed),
   * such as {@code attribution/proxy_keys_needed}, into Spark SQL.
   */
  public static String query(String duckdbSql) {
    String sql = stripComments(requireNonNull(duckdbSql, "duckdbSql is null")).strip();
    if (sql.endsWith(";")) {
      sql = sql.substring(0, sql.length() - 1).strip();
    }
    return expressions(sql);
  }

  /** Every rewrite of an expression-level difference, in order (each one tested on its own). */
  static String expressions(String sql) {
    String out = sql;
    out = outsideQuotes(out, SparkDialect::mainSchema);
    out = starReplace(out);
    out = fromFirst(out);
    out = outsideQuotes(out, SparkDialect::decimalLiterals);
    out = outsideQuotes(out, SparkDialect::varchar);
    out = outsideQuotes(out, SparkDialect::epochUs);
    out = outsideQuotes(out, SparkDialect::argMax);
    out = outsideQuotes(out, SparkDialect::quantiles);
    out = toMicroseconds(out);
    out = makeTimestamp(out);
    out = nullsLast(out);
    return out;
  }

  /**
   * DuckDB's {@code main.t} names the stored table past a temporary table {@code t} that shadows it
   * ({@code attribution/proxy_keys} builds {@code client_timing} from {@code main.client_timing});
   * on Spark every table is one view, replaced only after the statement: {@code t}.
   */
  static String mainSchema(String sql) {
    return sql.replaceAll("(?i)\\bmain\\.(?=[a-z_])", "");
  }

  private static final Pattern STAR_REPLACE =
      Pattern.compile("(?i)\\b(\\w+)\\.\\*\\s+REPLACE\\s*\\(");

  private static final Pattern AS_NAME = Pattern.compile("(?is)^(.*)\\s+AS\\s+(\\w+)\\s*$");

  /**
   * DuckDB's {@code t.* REPLACE (expr AS c, ...)} (every column of {@code t}, {@code c} computed):
   * Spark has no such star, so {@code t.`(c|...)?+.+`, expr AS c, ...}, a quoted regular expression
   * that names every column but the replaced ones ({@link SparkAttribution} turns on {@code
   * spark.sql.parser.quotedRegexColumnNames}), then the expressions. The replaced columns move to
   * the end: every statement reads its inputs' columns by name.
   */
  static String starReplace(String sql) {
    StringBuilder out = new StringBuilder();
    Matcher star = STAR_REPLACE.matcher(sql);
    int at = 0;
    while (star.find(at)) {
      int open = star.end() - 1;
      int close = matchingParen(sql, open);
      List<String> names = new ArrayList<>();
      List<String> items = new ArrayList<>();
      for (String item : splitTopLevel(sql.substring(open + 1, close), Pattern.compile(","))) {
        Matcher named = AS_NAME.matcher(item.strip());
        if (!named.matches()) {
          throw new IllegalArgumentException("a REPLACE item without AS name: " + item.strip());
        }
        names.add(named.group(2));
        items.add(named.group(1).strip() + " AS " + named.group(2));
      }
      out.append(sql, at, star.start())
          .append(star.group(1))
          .append(".`(")
          .append(String.join("|", names))
          .append(")?+.+`, ")
          .append(String.join(", ", items));
      at = close + 1;
    }
    return out.append(sql.substring(at)).toString();
  }

  /** DuckDB's {@code FROM t WHERE ...} without SELECT, in parentheses: {@code (SELECT * FROM t}. */
  static String fromFirst(String sql) {
    return sql.replaceAll("(?i)\\(\\s*FROM\\b", "(SELECT * FROM");
  }

  /**
   * A literal with a decimal point is DECIMAL in both engines, but DuckDB divides by one in DOUBLE
   * and Spark in DECIMAL ({@code 5 / 1000.0} is 0.005000): a D suffix makes it Spark's DOUBLE.
   */
  static String decimalLiterals(String sql) {
    return sql.replaceAll("(?<![\\w.])(\\d+\\.\\d+)(?![\\w.])", "$1D");
  }

  /** Spark's VARCHAR needs a length; DuckDB's has none: STRING. */
  static String varchar(String sql) {
    return sql.replaceAll("(?i)\\bAS\\s+VARCHAR\\b", "AS STRING");
  }

  /** DuckDB's {@code epoch_us(ts)}: Spark's {@code unix_micros(ts)}. */
  static String epochUs(String sql) {
    return sql.replaceAll("(?i)\\bepoch_us\\s*\\(", "unix_micros(");
  }

  /** DuckDB's {@code arg_max(v, k)}: Spark's {@code max_by(v, k)}. */
  static String argMax(String sql) {
    return sql.replaceAll("(?i)\\barg_max\\s*\\(", "max_by(")
        .replaceAll("(?i)\\barg_min\\s*\\(", "min_by(");
  }

  /**
   * DuckDB's {@code median(x)} and {@code mad(x)} (median absolute deviation; Spark has none)
   * interpolate as DuckDB's quantile_cont does: the runner registers {@code tt_median} and {@code
   * tt_mad} over the group's values ({@link Quantiles}), so the clock offsets agree to the last
   * digit.
   */
  static String quantiles(String sql) {
    return replaceCalls(
        replaceCalls(sql, "median", args -> "tt_median(collect_list(" + args + "))"),
        "mad",
        args -> "tt_mad(collect_list(" + args + "))");
  }

  /**
   * DuckDB's {@code to_microseconds(n)} (an INTERVAL of n microseconds): Spark multiplies a one
   * microsecond day-time interval, exactly (whole microseconds).
   */
  static String toMicroseconds(String sql) {
    return replaceCalls(
        sql, "to_microseconds", args -> "((" + args + ") * INTERVAL '0.000001' SECOND)");
  }

  /** DuckDB's one-argument {@code make_timestamp(micros)}: Spark's {@code timestamp_micros}. */
  static String makeTimestamp(String sql) {
    return replaceCalls(
        sql,
        "make_timestamp",
        args -> {
          if (splitTopLevel(args, Pattern.compile(",")).size() != 1) {
            throw new IllegalArgumentException("make_timestamp with several arguments: " + args);
          }
          return "timestamp_micros(" + args + ")";
        });
  }

  /**
   * DuckDB sorts NULLs last in both directions; Spark sorts them first in ascending order: every
   * ORDER BY item without a NULLS clause gets {@code NULLS LAST}.
   */
  static String nullsLast(String sql) {
    StringBuilder out = new StringBuilder();
    Matcher order = Pattern.compile("(?i)\\bORDER\\s+BY\\b").matcher(sql);
    int at = 0;
    while (order.find(at)) {
      out.append(sql, at, order.end());
      int end = endOfList(sql, order.end());
      List<String> items = splitTopLevel(sql.substring(order.end(), end), Pattern.compile(","));
      List<String> fixed = new ArrayList<>();
      for (String item : items) {
        String trimmed = item.stripTrailing();
        String trailing = item.substring(trimmed.length());
        fixed.add(
            Pattern.compile("(?i)\\bNULLS\\s+(FIRST|LAST)\\b").matcher(trimmed).find()
                ? item
                : trimmed + " NULLS LAST" + trailing);
      }
      out.append(String.join(",", fixed));
      at = end;
    }
    out.append(sql.substring(at));
    return out.toString();
  }

  /** The end of an ORDER BY list: a closing parenthesis of its level, or a clause keyword. */
  private static int endOfList(String sql, int from) {
    int depth = 0;
    boolean quoted = false;
    for (int i = from; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')') {
        if (depth == 0) {
          return i;
        }
        depth--;
      } else if (!quoted
          && depth == 0
          && Pattern.compile("(?i)^(ROWS|RANGE|LIMIT)\\b").matcher(sql.substring(i)).find()
          && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)))) {
        return i;
      }
    }
    return sql.length();
  }

  /** Replaces each call {@code name(args)} (any case) by {@code replacement(args)}. */
  static String replaceCalls(String sql, String name, UnaryOperator<String> replacement) {
    Matcher call =
        Pattern.compile("(?i)(?<![\\w.])" + Pattern.quote(name) + "\\s*\\(").matcher(sql);
    StringBuilder out = new StringBuilder();
    int at = 0;
    while (call.find(at)) {
      int open = call.end() - 1;
      int close = matchingParen(sql, open);
      out.append(sql, at, call.start());
      out.append(
          replacement.apply(replaceCalls(sql.substring(open + 1, close), name, replacement)));
      at = close + 1;
    }
    out.append(sql.substring(at));
    return out.toString();
  }

  /** Splits at matches of {@code separator} outside quotes and parentheses. */
  static List<String> splitTopLevel(String sql, Pattern separator) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    boolean quoted = false;
    int start = 0;
    Matcher matcher = separator.matcher(sql);
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')') {
        depth--;
      } else if (!quoted && depth == 0 && matcher.find(i) && matcher.start() == i) {
        parts.add(sql.substring(start, i));
        start = matcher.end();
        i = matcher.end() - 1;
      }
    }
    parts.add(sql.substring(start));
    return parts;
  }

  private static int matchingParen(String sql, int open) {
    int depth = 0;
    boolean quoted = false;
    for (int i = open; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (!quoted && c == '(') {
        depth++;
      } else if (!quoted && c == ')' && --depth == 0) {
        return i;
      }
    }
    throw new IllegalArgumentException("unbalanced parenthesis at " + open + ": " + sql);
  }

  /** Applies {@code rewrite} to the text between string literals only. */
  private static String outsideQuotes(String sql, UnaryOperator<String> rewrite) {
    StringBuilder out = new StringBuilder();
    int at = 0;
    while (at < sql.length()) {
      int quote = sql.indexOf('\'', at);
      if (quote < 0) {
        out.append(rewrite.apply(sql.substring(at)));
        break;
      }
      out.append(rewrite.apply(sql.substring(at, quote)));
      int end = sql.indexOf('\'', quote + 1);
      while (end >= 0 && end + 1 < sql.length() && sql.charAt(end + 1) == '\'') {
        end = sql.indexOf('\'', end + 2);
      }
      if (end < 0) {
        throw new IllegalArgumentException("unterminated string literal: " + sql);
      }
      out.append(sql, quote, end + 1);
      at = end + 1;
    }
    return out.toString();
  }

  /** Removes {@code --} comments (the SQL files use no other kind, sql/README.md). */
  static String stripComments(String sql) {
    StringBuilder out = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      }
      if (!quoted && c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
        while (i < sql.length() && sql.charAt(i) != '\n') {
          i++;
        }
        out.append('\n');
        continue;
      }
      out.append(c);
    }
    return out.toString();
  }

  private static boolean startsWithWord(String sql, String word) {
    return sql.regionMatches(true, 0, word, 0, word.length())
        && (sql.length() == word.length() || !Character.isLetterOrDigit(sql.charAt(word.length())));
  }
}
