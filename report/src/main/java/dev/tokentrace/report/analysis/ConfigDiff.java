package dev.tokentrace.report.analysis;

import dev.tokentrace.report.analysis.EnvironmentSettings.Setting;
import dev.tokentrace.report.model.ConfigComparison;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The configuration differences between the current database and a {@code --baseline}, listed
 * before any latency comparison: two runs compare only once their conditions are aligned. Instances
 * are paired by name; when each side has exactly one instance, those two are paired whatever their
 * names. Each paired instance is compared setting by setting ({@link EnvironmentSettings}: engine
 * version, model, precision, limits, ...), then key by key for the other settings it printed
 * (launch arguments, resolved limits; not measurements such as free GPU memory). Pure.
 */
final class ConfigDiff {
  /** One difference: {@code label} is the engine's key where both sides use the same one. */
  record Row(String instance, String label, @Nullable String baseline, @Nullable String current) {
    /** {@code max_num_seqs 256 → 128}. */
    String text() {
      return label
          + " "
          + (baseline == null ? "unknown" : baseline)
          + " → "
          + (current == null ? "unknown" : current);
    }
  }

  /** The comparison: differences, and what could not be compared. */
  record Result(
      List<Row> rows,
      List<String> unpaired,
      int compared,
      boolean baselineUnknown,
      boolean currentUnknown) {
    boolean comparable() {
      return !baselineUnknown && !currentUnknown;
    }
  }

  /** Differences named in the summary sentence; the table lists them all. */
  static final int NAMED = 6;

  private ConfigDiff() {}

  /** The comparison of the report's database with its baseline's, or null without a baseline. */
  static @Nullable Result of(ReportData data) {
    ReportData.Baseline baseline = data.baseline();
    return baseline == null ? null : of(data.evidence().config(), baseline.config());
  }

  /** The comparison as the report states it, or null without a baseline. */
  static @Nullable ConfigComparison comparison(ReportData data) {
    Result result = of(data);
    return result == null
        ? null
        : new ConfigComparison(
            sentence(result),
            result.comparable(),
            result.compared(),
            result.unpaired(),
            result.rows().stream()
                .map(
                    row ->
                        new ConfigComparison.Difference(
                            row.instance(), row.label(), row.baseline(), row.current()))
                .toList());
  }

  /** The sentence that opens the baseline comparison and closes the bottleneck conclusion. */
  static Text sentence(Result result) {
    return Text.of(sentenceText(result));
  }

  private static String sentenceText(Result result) {
    if (result.baselineUnknown() || result.currentUnknown()) {
      String side =
          result.baselineUnknown() && result.currentUnknown()
              ? "neither database holds"
              : result.baselineUnknown() ? "the baseline holds no" : "this database holds no";
      return "Whether both runs had the same server configuration is unknown: "
          + side
          + " startup configuration lines (keep the server log from the start of the process);"
          + " compare the latencies with that in mind.";
    }
    String unpaired =
        result.unpaired().isEmpty()
            ? ""
            : " Not compared: " + String.join(", ", result.unpaired()) + ".";
    if (result.rows().isEmpty()) {
      return "Against the baseline the server configuration is the same as far as both logs say ("
          + result.compared()
          + " settings compared)."
          + unpaired;
    }
    List<String> named = result.rows().stream().limit(NAMED).map(Row::text).toList();
    String more =
        result.rows().size() > NAMED ? " and " + (result.rows().size() - NAMED) + " more" : "";
    return "The runs did not have the same server configuration ("
        + String.join(", ", named)
        + more
        + "): latency differences against the baseline reflect these changes as well as the"
        + " load."
        + unpaired;
  }

  static Result of(
      List<ReportEvidence.ConfigRow> current, List<ReportEvidence.ConfigRow> baseline) {
    Map<String, List<ReportEvidence.ConfigRow>> now = byInstance(current);
    Map<String, List<ReportEvidence.ConfigRow>> then = byInstance(baseline);
    List<String[]> pairs = new ArrayList<>();
    List<String> unpaired = new ArrayList<>();
    for (String name : now.keySet()) {
      if (then.containsKey(name)) {
        pairs.add(new String[] {name, name});
      }
    }
    if (pairs.isEmpty() && now.size() == 1 && then.size() == 1) {
      pairs.add(new String[] {now.keySet().iterator().next(), then.keySet().iterator().next()});
    } else {
      now.keySet().stream()
          .filter(n -> !then.containsKey(n))
          .forEach(n -> unpaired.add(n + " (current only)"));
      then.keySet().stream()
          .filter(n -> !now.containsKey(n))
          .forEach(n -> unpaired.add(n + " (baseline only)"));
    }
    List<Row> rows = new ArrayList<>();
    int compared = 0;
    for (String[] pair : pairs) {
      String label = pair[0].equals(pair[1]) ? pair[0] : pair[1] + " → " + pair[0];
      compared += compare(label, now.get(pair[0]), then.get(pair[1]), rows);
    }
    return new Result(rows, unpaired, compared, baseline.isEmpty(), current.isEmpty());
  }

  private static int compare(
      String instance,
      List<ReportEvidence.ConfigRow> now,
      List<ReportEvidence.ConfigRow> then,
      List<Row> rows) {
    String engineNow = now.get(0).engine();
    String engineThen = then.get(0).engine();
    EnvironmentSettings.Instance a = EnvironmentSettings.instance(engineNow, instance, now);
    EnvironmentSettings.Instance b = EnvironmentSettings.instance(engineThen, instance, then);
    int compared = 0;
    Set<String> covered = new LinkedHashSet<>();
    for (Setting setting : Setting.values()) {
      EnvironmentSettings.Item x = a.item(setting);
      EnvironmentSettings.Item y = b.item(setting);
      if (x == null && y == null) {
        continue;
      }
      if (x != null) {
        covered.add(x.key());
      }
      if (y != null) {
        covered.add(y.key());
      }
      compared++;
      String valueNow = x == null ? null : x.value();
      String valueThen = y == null ? null : y.value();
      if (setting == Setting.VERSION && !engineNow.equals(engineThen)) {
        valueNow = engineNow + " " + orUnknown(valueNow);
        valueThen = engineThen + " " + orUnknown(valueThen);
      }
      if (!Objects.equals(valueNow, valueThen)) {
        rows.add(new Row(instance, label(setting, x, y), valueThen, valueNow));
      }
    }
    Map<String, String> keysNow = settings(now);
    Map<String, String> keysThen = settings(then);
    Set<String> keys = new LinkedHashSet<>(keysThen.keySet());
    keys.addAll(keysNow.keySet());
    for (String key : keys) {
      if (covered.contains(key)) {
        continue;
      }
      compared++;
      String valueNow = keysNow.get(key);
      String valueThen = keysThen.get(key);
      if (!Objects.equals(valueNow, valueThen)) {
        rows.add(new Row(instance, key, valueThen, valueNow));
      }
    }
    return compared;
  }

  private static String label(
      Setting setting,
      EnvironmentSettings.@Nullable Item now,
      EnvironmentSettings.@Nullable Item then) {
    if (setting == Setting.VERSION) {
      return "engine";
    }
    if (now != null && then != null && now.key().equals(then.key())) {
      return now.key();
    }
    return now != null && then == null
        ? now.key()
        : then != null && now == null ? then.key() : setting.label;
  }

  /** The settings rows (launch arguments and resolved limits) by key, resolved value first. */
  private static Map<String, String> settings(List<ReportEvidence.ConfigRow> rows) {
    Map<String, String> out = new LinkedHashMap<>();
    for (ReportEvidence.ConfigRow row : rows) {
      if (!EnvironmentSettings.isSetting(row.section()) || row.section().equals("version")) {
        continue;
      }
      ReportEvidence.ConfigRow preferred = EnvironmentSettings.preferred(rows, row.key());
      if (preferred != null) {
        String value = preferred.value();
        out.put(row.key(), value.startsWith("torch.") ? value.substring(6) : value);
      }
    }
    return out;
  }

  private static Map<String, List<ReportEvidence.ConfigRow>> byInstance(
      List<ReportEvidence.ConfigRow> rows) {
    Map<String, List<ReportEvidence.ConfigRow>> out = new LinkedHashMap<>();
    for (ReportEvidence.ConfigRow row : rows) {
      out.computeIfAbsent(row.instance(), k -> new ArrayList<>()).add(row);
    }
    return out;
  }

  private static String orUnknown(@Nullable String value) {
    return value == null ? "unknown" : value;
  }
}
