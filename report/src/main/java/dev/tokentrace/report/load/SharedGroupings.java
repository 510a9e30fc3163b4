package dev.tokentrace.report.load;

import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.query.QueryRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;

/**
 * Which groupings of the report's percentile statements split their requests exactly as an earlier
 * grouping does, and those groupings' rows made from the earlier one's
 * (docs/design.md#shared-groupings). With one run, 'run' has the groups of 'all'; with one run per
 * level, 'run_concurrency' those of 'concurrency'; with one engine and one instance, 'engine' and
 * 'instance' those of 'all'. Same requests, so the same counts, exact percentiles, sums and means:
 * only the labels differ, and the order of the groups, which is recomputed as the statement's ORDER
 * BY would. Computed from the cells of report/grouping_cells (one aggregate), where every grouping
 * is a union of cells.
 */
final class SharedGroupings {
  /** report/grouping_cells returns one row more than this when the file has more cells. */
  static final int MAX_CELLS = 10_000;

  static final String GROUPING_CELLS = "report/grouping_cells";

  /** The requests a statement aggregates. */
  enum Population {
    /** queries/attribution_summary: the included requests. */
    INCLUDED,
    /** attribution/core_metrics: status ok, not warm-up. */
    BLACK_BOX
  }

  /** One row of report/grouping_cells. */
  public record Cell(
      @Nullable String runId,
      @Nullable Integer concurrency,
      @Nullable String engine,
      @Nullable String instance,
      long included,
      long blackBox) {
    long requests(Population population) {
      return population == Population.INCLUDED ? included : blackBox;
    }
  }

  /**
   * A group's labels as a statement writes them: group_value, run_id and concurrency (the latter
   * two only for the groupings that have them), and the level it is ordered by (the lowest
   * concurrency of its requests).
   */
  record Label(
      @Nullable String groupValue,
      @Nullable String runId,
      @Nullable Integer concurrency,
      @Nullable Integer order) {}

  private final @Nullable List<Cell> cells;

  private SharedGroupings(@Nullable List<Cell> cells) {
    this.cells = cells;
  }

  /** The cells of the attribution on this handle; none shared when there are too many. */
  static SharedGroupings of(Handle handle) {
    List<Cell> cells = QueryRows.list(handle, GROUPING_CELLS, Cell.class);
    return new SharedGroupings(cells.size() > MAX_CELLS ? null : cells);
  }

  /** Shares nothing: every grouping is computed. */
  static SharedGroupings none() {
    return new SharedGroupings(null);
  }

  /**
   * The first of {@code earlier} whose groups are the same requests as those of {@code grouping},
   * or null.
   */
  @Nullable String sameAs(Population population, String grouping, List<String> earlier) {
    if (cells == null) {
      return null;
    }
    for (String candidate : earlier) {
      if (sameGroups(population, candidate, grouping)) {
        return candidate;
      }
    }
    return null;
  }

  /**
   * The rows of attribution_summary for {@code grouping} made from those of {@code source}, which
   * {@link #sameAs} found equal, in the statement's order.
   */
  List<ReportData.Component> components(
      String source, String grouping, List<ReportData.Component> rows) {
    Map<Label, Label> relabel = relabelling(Population.INCLUDED, source, grouping);
    List<ReportData.Component> out = new ArrayList<>(rows.size());
    List<Label> labels = new ArrayList<>(rows.size());
    for (ReportData.Component row : rows) {
      Label to = target(relabel, summaryLabel(row));
      labels.add(to);
      out.add(
          new ReportData.Component(
              grouping,
              to.groupValue(),
              row.component(),
              row.requests(),
              row.p50Ms(),
              row.p90Ms(),
              row.p95Ms(),
              row.p99Ms(),
              row.meanMs(),
              row.share(),
              row.dominantRequests(),
              to.runId(),
              to.concurrency()));
    }
    // ORDER BY grouping_rank DESC, concurrency_order NULLS LAST, group_value, ord: the rows of one
    // group stay in their component order (a stable sort on the group's keys)
    return sorted(
        out,
        labels,
        Comparator.comparing(Label::order, Comparator.nullsLast(Comparator.<Integer>naturalOrder()))
            .thenComparing(Label::groupValue, Comparator.nullsLast(SharedGroupings::byCodePoint)));
  }

  /** As {@link #components}, for attribution/core_metrics. */
  List<ReportData.Metric> metrics(String source, String grouping, List<ReportData.Metric> rows) {
    Map<Label, Label> relabel = relabelling(Population.BLACK_BOX, source, grouping);
    Map<@Nullable String, Label> bySourceValue = new HashMap<>();
    relabel.forEach((from, to) -> bySourceValue.put(from.groupValue(), to));
    List<ReportData.Metric> out = new ArrayList<>(rows.size());
    List<Label> labels = new ArrayList<>(rows.size());
    for (ReportData.Metric row : rows) {
      if (!bySourceValue.containsKey(row.groupValue())) {
        throw new IllegalStateException("no cell of group " + row.groupValue() + " of " + source);
      }
      Label to = bySourceValue.get(row.groupValue());
      labels.add(to);
      out.add(
          new ReportData.Metric(
              grouping,
              to.groupValue(),
              row.metric(),
              row.requests(),
              row.p50Ms(),
              row.p90Ms(),
              row.p95Ms(),
              row.p99Ms(),
              row.meanMs()));
    }
    // ORDER BY grouping_rank DESC, concurrency NULLS LAST, run_id, ord
    return sorted(
        out,
        labels,
        Comparator.comparing(
                Label::concurrency, Comparator.nullsLast(Comparator.<Integer>naturalOrder()))
            .thenComparing(Label::runId, Comparator.nullsLast(SharedGroupings::byCodePoint)));
  }

  /**
   * Whether queries/concurrency_sensitivity's series per instance are its series per run: over its
   * population (status ok, not warm-up, with a level) every request has an instance, and runs and
   * instances map one to one.
   */
  boolean instancesAreRuns() {
    if (cells == null) {
      return false;
    }
    Map<String, String> instanceOfRun = new HashMap<>();
    Map<String, String> runOfInstance = new HashMap<>();
    for (Cell cell : cells) {
      if (cell.blackBox() == 0 || cell.concurrency() == null) {
        continue;
      }
      String run = cell.runId();
      String instance = cell.instance();
      if (run == null || instance == null) {
        return false;
      }
      String seen = instanceOfRun.putIfAbsent(run, instance);
      if (seen != null && !seen.equals(instance)) {
        return false;
      }
      seen = runOfInstance.putIfAbsent(instance, run);
      if (seen != null && !seen.equals(run)) {
        return false;
      }
    }
    return true;
  }

  /**
   * concurrency_sensitivity's rows per instance made from those per run, when {@link
   * #instancesAreRuns}, in its order (group_value, then concurrency).
   */
  List<ReportData.ConcurrencyLevel> levelsByInstance(List<ReportData.ConcurrencyLevel> byRun) {
    Map<String, String> instanceOfRun = new HashMap<>();
    for (Cell cell : Objects.requireNonNull(cells)) {
      if (cell.blackBox() > 0 && cell.concurrency() != null && cell.runId() != null) {
        instanceOfRun.put(cell.runId(), Objects.requireNonNull(cell.instance()));
      }
    }
    List<ReportData.ConcurrencyLevel> out = new ArrayList<>(byRun.size());
    for (ReportData.ConcurrencyLevel row : byRun) {
      String instance = instanceOfRun.get(row.groupValue());
      if (instance == null) {
        throw new IllegalStateException("no cell of run " + row.groupValue());
      }
      out.add(
          new ReportData.ConcurrencyLevel(
              "instance",
              instance,
              row.concurrency(),
              row.requests(),
              row.ftlP50Ms(),
              row.ftlP90Ms(),
              row.ftlP95Ms(),
              row.mltP50Ms(),
              row.mltP95Ms(),
              row.baselineConcurrency(),
              row.ftlP50GrowthPct(),
              row.mltP50GrowthPct(),
              row.queueingBound(),
              row.ruleLevel(),
              row.levels(),
              row.mltP90Ms(),
              row.tpotP50Ms(),
              row.tpotP90Ms(),
              row.tpotP95Ms()));
    }
    // ORDER BY group_value, concurrency
    out.sort(
        Comparator.comparing(ReportData.ConcurrencyLevel::groupValue, SharedGroupings::byCodePoint)
            .thenComparingInt(ReportData.ConcurrencyLevel::concurrency));
    return out;
  }

  private static <T> List<T> sorted(List<T> rows, List<Label> labels, Comparator<Label> order) {
    Integer[] index = new Integer[rows.size()];
    Arrays.setAll(index, i -> i);
    Arrays.sort(index, (a, b) -> order.compare(labels.get(a), labels.get(b)));
    List<T> out = new ArrayList<>(rows.size());
    for (Integer i : index) {
      out.add(rows.get(i));
    }
    return out;
  }

  private static Label target(Map<Label, Label> relabel, Label from) {
    Label to = relabel.get(from);
    if (to == null) {
      throw new IllegalStateException("no cell of group " + from);
    }
    return to;
  }

  /** The label a summary row carries, as {@link #label} gives it (order not set). */
  private static Label summaryLabel(ReportData.Component row) {
    return new Label(row.groupValue(), row.runId(), row.concurrency(), null);
  }

  private boolean sameGroups(Population population, String a, String b) {
    Map<Label, Label> forward = new HashMap<>();
    Map<Label, Label> backward = new HashMap<>();
    for (Cell cell : Objects.requireNonNull(cells)) {
      if (cell.requests(population) == 0) {
        continue;
      }
      Label left = key(population, a, cell);
      Label right = key(population, b, cell);
      Label seen = forward.putIfAbsent(left, right);
      if (seen != null && !seen.equals(right)) {
        return false;
      }
      seen = backward.putIfAbsent(right, left);
      if (seen != null && !seen.equals(left)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Source group (labels without order, as the rows carry them) → target group (with its order: the
   * lowest level of its cells).
   */
  private Map<Label, Label> relabelling(Population population, String source, String grouping) {
    Map<Label, Label> relabel = new HashMap<>();
    Map<Label, @Nullable Integer> lowest = new HashMap<>();
    for (Cell cell : Objects.requireNonNull(cells)) {
      if (cell.requests(population) == 0) {
        continue;
      }
      Label to = key(population, grouping, cell);
      relabel.put(key(population, source, cell), to);
      // min(level) ignores NULL levels: a group of NULL levels only has a NULL order
      Integer level = cell.concurrency();
      Integer before = lowest.get(to);
      if (before == null || (level != null && level < before)) {
        lowest.put(to, level);
      }
    }
    Map<Label, Label> ordered = new HashMap<>();
    relabel.forEach(
        (from, to) ->
            ordered.put(
                from, new Label(to.groupValue(), to.runId(), to.concurrency(), lowest.get(to))));
    return ordered;
  }

  /**
   * A cell's group in a grouping: the labels the statements write (group_value, run_id and
   * concurrency), as queries/attribution_summary and attribution/core_metrics compute them.
   */
  static Label key(Population population, String grouping, Cell cell) {
    String level = cell.concurrency() == null ? "unknown" : cell.concurrency().toString();
    boolean summary = population == Population.INCLUDED;
    switch (grouping) {
      case "all":
        return new Label(null, null, null, null);
      case "run":
        return new Label(cell.runId(), cell.runId(), null, null);
      case "concurrency":
        return new Label(level, null, cell.concurrency(), null);
      case "run_concurrency":
        if (!summary) {
          break;
        }
        return new Label(
            cell.runId() == null ? null : cell.runId() + " @ " + level,
            cell.runId(),
            cell.concurrency(),
            null);
      case "engine":
        if (!summary) {
          break;
        }
        return new Label(cell.engine(), null, null, null);
      case "instance":
        if (!summary) {
          break;
        }
        return new Label(cell.instance(), null, null, null);
      default:
        break;
    }
    throw new IllegalArgumentException("no grouping " + grouping + " for " + population);
  }

  /** DuckDB's order of VARCHARs: UTF-8 bytes, i.e. code points (not UTF-16 units). */
  static int byCodePoint(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }
}
