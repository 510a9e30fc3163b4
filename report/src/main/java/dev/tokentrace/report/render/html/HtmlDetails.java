package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The report page's tables: core metrics per run and level with throughput, the slowest requests
 * with the server's state, and every request (sortable). The environment and the appendix are in
 * {@link HtmlEnvironment}.
 *
 * <p>(Longer than the house's 200 lines: three tables of many columns each.)
 */
final class HtmlDetails {
  private HtmlDetails() {}

  static String coreMetrics(Report report) {
    ReportData data = report.data();
    StringBuilder out = new StringBuilder("<section id=\"core\"><h2>Core metrics</h2>");
    out.append("<p class=\"note\">").append(Html.prose(report.definitions())).append("</p>");
    HtmlTable overall =
        new HtmlTable(
            "t",
            false,
            "metric",
            ">requests",
            ">P50 ms",
            ">P90 ms",
            ">P95 ms",
            ">P99 ms",
            ">mean ms");
    for (ReportData.Metric metric : data.metrics("all")) {
      overall.row(
          HtmlTable.Cell.text(metric.metric().toUpperCase(Locale.ROOT)),
          HtmlTable.Cell.count(metric.requests()),
          HtmlTable.Cell.ms(metric.p50Ms()),
          HtmlTable.Cell.ms(metric.p90Ms()),
          HtmlTable.Cell.ms(metric.p95Ms()),
          HtmlTable.Cell.ms(metric.p99Ms()),
          HtmlTable.Cell.ms(metric.meanMs()));
    }
    out.append(overall.render());
    HtmlTable levels =
        new HtmlTable(
            "t",
            true,
            "run",
            ">level",
            ">requests",
            ">TTFT P50 ms",
            ">TTFT P90 ms",
            ">TTFT P95 ms",
            ">TTFT P50 change",
            ">ITL P50 ms",
            ">ITL P90 ms",
            ">ITL P95 ms",
            ">TPOT P50 ms",
            ">TPOT P90 ms",
            ">TPOT P95 ms",
            ">req/s",
            ">out tok/s");
    for (ReportData.ConcurrencyLevel level : data.concurrency()) {
      Optional<ReportEvidence.Throughput> rate =
          data.evidence().throughput().stream()
              .filter(row -> row.groupBy().equals("run_concurrency"))
              .filter(row -> row.runId().equals(level.groupValue()))
              .filter(row -> Objects.equals(row.concurrency(), level.concurrency()))
              .findFirst();
      levels.row(
          HtmlTable.Cell.text(level.groupValue()),
          HtmlTable.Cell.count(level.concurrency()),
          HtmlTable.Cell.count(level.requests()),
          HtmlTable.Cell.ms(level.ftlP50Ms()),
          HtmlTable.Cell.ms(level.ftlP90Ms()),
          HtmlTable.Cell.ms(level.ftlP95Ms()),
          HtmlTable.Cell.number(level.ftlP50GrowthPct(), Numbers.change(level.ftlP50GrowthPct())),
          HtmlTable.Cell.ms(level.mltP50Ms()),
          HtmlTable.Cell.ms(level.mltP90Ms()),
          HtmlTable.Cell.ms(level.mltP95Ms()),
          HtmlTable.Cell.ms(level.tpotP50Ms()),
          HtmlTable.Cell.ms(level.tpotP90Ms()),
          HtmlTable.Cell.ms(level.tpotP95Ms()),
          HtmlTable.Cell.rate(rate.map(ReportEvidence.Throughput::requestsPerS).orElse(null)),
          HtmlTable.Cell.rate(rate.map(ReportEvidence.Throughput::outputTokensPerS).orElse(null)));
    }
    if (!levels.isEmpty()) {
      out.append("<h3>Per run and concurrency level (ms; change = TTFT P50 against the run's")
          .append(" lowest level)</h3>")
          .append(levels.render());
    }
    return out.append("</section>\n").toString();
  }

  static String slowest(ReportData data) {
    List<ReportEvidence.SlowRequest> slowest = data.evidence().slowest();
    if (slowest.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("<section id=\"slowest\"><h2>Slowest requests</h2>");
    out.append("<p class=\"note\">Server state from the stats snapshot and the batch step nearest")
        .append(" the request's start on the server's clock (snapshot at = its time - the start).")
        .append("</p>");
    HtmlTable table =
        new HtmlTable(
            "t",
            true,
            ">#",
            "request",
            "run",
            ">E2E ms",
            ">TTFT ms",
            "dominant",
            ">network ms",
            ">queue ms",
            ">prefill ms",
            ">decode ms",
            ">running",
            ">waiting",
            ">KV %",
            ">batch",
            ">snapshot at s");
    int rank = 0;
    for (ReportEvidence.SlowRequest row : slowest) {
      Long offset = row.statsOffsetMs() != null ? row.statsOffsetMs() : row.batchOffsetMs();
      table.row(
          HtmlTable.Cell.count(++rank),
          HtmlTable.Cell.text(row.requestKey()),
          HtmlTable.Cell.text(row.runId()),
          HtmlTable.Cell.ms(row.clientE2eMs()),
          HtmlTable.Cell.ms(row.clientTtftMs()),
          HtmlTable.Cell.text(row.dominant()),
          HtmlTable.Cell.ms(row.networkMs()),
          HtmlTable.Cell.ms(row.queueMs()),
          HtmlTable.Cell.ms(row.prefillMs()),
          HtmlTable.Cell.ms(row.decodeMs()),
          HtmlTable.Cell.count(row.running()),
          HtmlTable.Cell.count(row.waiting() != null ? row.waiting() : row.batchQueued()),
          HtmlTable.Cell.rate(row.kvUsagePct()),
          HtmlTable.Cell.count(row.batchSize()),
          HtmlTable.Cell.number(
              offset == null ? null : offset / 1000.0,
              offset == null ? "n/a" : String.format(Locale.ROOT, "%+.1f", offset / 1000.0)));
    }
    out.append(table.render());
    List<ReportEvidence.NearNotice> notices = data.evidence().noticesNearSlow();
    if (!notices.isEmpty()) {
      HtmlTable near =
          new HtmlTable("t", false, ">#", "request", ">at s", "kind", "level", "~message");
      for (ReportEvidence.NearNotice notice : notices) {
        near.row(
            HtmlTable.Cell.count(notice.slowRank()),
            HtmlTable.Cell.text(notice.requestKey()),
            HtmlTable.Cell.text(String.format(Locale.ROOT, "%+.1f", notice.offsetMs() / 1000.0)),
            HtmlTable.Cell.text(notice.kind()),
            HtmlTable.Cell.text(notice.level()),
            HtmlTable.Cell.text(notice.message()));
      }
      out.append("<h3>Logged on their servers from 5 s before to 1 s after them</h3>")
          .append(near.render());
    }
    return out.append("</section>\n").toString();
  }

  static String requests(ReportData data) {
    List<ReportEvidence.RequestRow> rows = data.evidence().requests();
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("<section id=\"requests\"><h2>Requests</h2>");
    out.append("<p class=\"note\">")
        .append(Numbers.count(rows.size(), "client request"))
        .append(rows.size() >= ReportEvidence.REQUEST_ROWS ? " (the slowest; `sql` has all)" : "")
        .append(", slowest first; click a column to sort. Components in ms; an excluded request")
        .append(" says why.</p>");
    HtmlTable table =
        new HtmlTable(
            "t",
            true,
            "run",
            "request",
            ">level",
            "status",
            "dominant / exclusion",
            ">TTFT ms",
            ">E2E ms",
            ">ITL ms",
            ">client q ms",
            ">network ms",
            ">queue ms",
            ">prefill ms",
            ">decode ms",
            ">prompt tokens",
            ">output tokens");
    for (ReportEvidence.RequestRow row : rows) {
      table.row(
          HtmlTable.Cell.text(row.runId()),
          HtmlTable.Cell.text(row.requestKey()),
          HtmlTable.Cell.count(row.concurrency()),
          HtmlTable.Cell.text(row.status().equals("ok") ? row.joinStatus() : row.status()),
          HtmlTable.Cell.text(row.included() ? row.dominant() : row.exclusion()),
          HtmlTable.Cell.ms(row.clientTtftMs()),
          HtmlTable.Cell.ms(row.clientE2eMs()),
          HtmlTable.Cell.ms(row.mltMs()),
          HtmlTable.Cell.ms(row.clientQueueMs()),
          HtmlTable.Cell.ms(row.networkMs()),
          HtmlTable.Cell.ms(row.queueMs()),
          HtmlTable.Cell.ms(row.prefillMs()),
          HtmlTable.Cell.ms(row.decodeMs()),
          HtmlTable.Cell.count(row.promptTokens()),
          HtmlTable.Cell.count(row.outputTokens()));
    }
    return out.append(table.render()).append("</section>\n").toString();
  }
}
