package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.RunLoad;
import dev.tokentrace.report.model.Text;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The load each client run put on the servers (report/environment_load, warm-up excluded): its
 * requests, prompt and output lengths and concurrency (and the request rate a tool's aggregate file
 * recorded), or why a part is unknown. Pure.
 */
final class ClientLoad {
  private ClientLoad() {}

  static List<RunLoad> of(ReportData data) {
    return data.evidence().load().stream().map(row -> new RunLoad(row.runId(), text(row))).toList();
  }

  /** {@code 200 requests; prompt tokens P10/P50/P90/max 120/200/310/512; ...}. */
  static Text text(ReportEvidence.LoadRow row) {
    return Text.of(
        Numbers.count(row.requests(), "request"),
        "; prompt tokens ",
        lengths(
            row.promptTokenRows(),
            row.promptP10(),
            row.promptP50(),
            row.promptP90(),
            row.promptMax()),
        "; output tokens ",
        lengths(
            row.outputTokenRows(),
            row.outputP10(),
            row.outputP50(),
            row.outputP90(),
            row.outputMax()),
        "; concurrency ",
        concurrency(row),
        rate(row));
  }

  /** The rate the tool's aggregate file recorded, next to the concurrency; empty when none. */
  private static String rate(ReportEvidence.LoadRow row) {
    Double rate = row.requestRate();
    if (rate == null) {
      return "";
    }
    String value =
        rate == Math.rint(rate) && rate < 1e9
            ? Long.toString(rate.longValue())
            : new BigDecimal(String.format(Locale.ROOT, "%.3g", rate))
                .stripTrailingZeros()
                .toPlainString();
    return "; request rate " + value + "/s (the tool's aggregate file)";
  }

  private static String lengths(
      long rows,
      @Nullable Double p10,
      @Nullable Double p50,
      @Nullable Double p90,
      @Nullable Integer max) {
    if (rows == 0) {
      return "unknown (this client format does not record them)";
    }
    return String.format(
        Locale.ROOT,
        "P10/P50/P90/max %s/%s/%s/%s",
        whole(p10),
        whole(p50),
        whole(p90),
        max == null ? "n/a" : max.toString());
  }

  private static Text concurrency(ReportEvidence.LoadRow row) {
    Integer min = row.concurrencyMin();
    if (row.concurrencyRows() == 0 || min == null) {
      return Text.of(
          "unknown (not recorded: pass --concurrency to ", Inline.whole("tokentrace clients"), ")");
    }
    return Text.of(
        min.equals(row.concurrencyMax()) ? min.toString() : min + "–" + row.concurrencyMax());
  }

  private static String whole(@Nullable Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
  }
}
