package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.store.query.MarkdownTable;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The slowest requests with their breakdown and the server's state when they arrived (the nearest
 * stats snapshot or batch step), and the errors, preemptions and aborts logged around them.
 */
final class MarkdownSlowest {
  /** Notices listed in the Markdown; `sql notices_near_slow` has all. */
  static final int NOTICES = 8;

  private MarkdownSlowest() {}

  static String section(ReportData data) {
    List<ReportEvidence.SlowRequest> slowest = data.evidence().slowest();
    if (slowest.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("## Slowest requests\n\n");
    out.append(
        Prose.paragraph(
            "Server state from the stats snapshot (running, waiting, KV cache use) and the batch"
                + " step nearest the request's start on the server's clock; at = snapshot time -"
                + " start. `tokentrace sql slowest_requests` has more columns, `queue_timeline` every"
                + " snapshot around each request."));
    MarkdownTable table =
        new MarkdownTable(
            "request",
            ">E2E ms",
            ">TTFT ms",
            "dominant",
            ">running",
            ">waiting",
            ">KV %",
            ">batch",
            ">at s");
    for (ReportEvidence.SlowRequest row : slowest) {
      table.row(
          row.requestKey(),
          Numbers.ms(row.clientE2eMs()),
          Numbers.ms(row.clientTtftMs()),
          row.dominant() == null ? "n/a" : row.dominant(),
          number(row.running()),
          number(row.waiting() != null ? row.waiting() : row.batchQueued()),
          row.kvUsagePct() == null ? "n/a" : String.format(Locale.ROOT, "%.1f", row.kvUsagePct()),
          number(row.batchSize()),
          seconds(row.statsOffsetMs() != null ? row.statsOffsetMs() : row.batchOffsetMs()));
    }
    out.append(table.render()).append('\n');
    out.append(notices(data.evidence().noticesNearSlow()));
    return out.toString();
  }

  private static String notices(List<ReportEvidence.NearNotice> notices) {
    if (notices.isEmpty()) {
      return Prose.paragraph(
          "No error, OOM, preemption, warning or abort was logged on their servers from 5 s before"
              + " to 1 s after them.");
    }
    StringBuilder out =
        new StringBuilder(
            Prose.paragraph(
                "Logged on their servers from 5 s before to 1 s after them ("
                    + Numbers.count(notices.size(), "notice")
                    + "):"));
    notices.stream()
        .limit(NOTICES)
        .forEach(
            notice ->
                out.append(
                    Prose.bullet(
                        String.format(
                            Locale.ROOT,
                            "%s (#%d) at %s s: %s %s",
                            MarkdownText.code(notice.requestKey()),
                            notice.slowRank(),
                            seconds(notice.offsetMs()),
                            notice.kind(),
                            MarkdownText.code(notice.message())))));
    if (notices.size() > NOTICES) {
      out.append(Prose.bullet("... `tokentrace sql notices_near_slow` lists all of them."));
    }
    return out.append('\n').toString();
  }

  private static String number(@Nullable Integer value) {
    return value == null ? "n/a" : value.toString();
  }

  private static String seconds(@Nullable Long offsetMs) {
    return offsetMs == null ? "n/a" : String.format(Locale.ROOT, "%+.1f", offsetMs / 1000.0);
  }
}
