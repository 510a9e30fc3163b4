package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportRenderer;
import dev.tokentrace.report.model.RunSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The report as one self-contained HTML page: inline CSS, hand-written inline SVG charts (stacked
 * component bars per percentile, component shares per run, an FTL CDF per concurrency level, batch
 * size and queue over time with the slowest requests marked), a per-request table that sorts, and
 * the Markdown's sections. No external resource: a Content-Security-Policy allows no fetch at all
 * and only the page's own script (by its SHA-256), and every log-derived string is escaped ({@link
 * Html}). Stateless and thread-safe.
 */
public final class HtmlReportWriter implements ReportRenderer {
  /** Sorts a table by the clicked column (numbers by data-v, blanks last); nothing else. */
  static final String SCRIPT =
      "document.querySelectorAll('table.sortable th').forEach(function (th) {\n"
          + "  th.addEventListener('click', function () {\n"
          + "    var table = th.closest('table'), body = table.tBodies[0], col = th.cellIndex;\n"
          + "    var num = th.getAttribute('data-type') === 'num';\n"
          + "    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;\n"
          + "    table.querySelectorAll('th').forEach(function (h) {"
          + " h.removeAttribute('aria-sort'); });\n"
          + "    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');\n"
          + "    var rows = Array.prototype.slice.call(body.rows);\n"
          + "    rows.sort(function (a, b) {\n"
          + "      var x = a.cells[col].getAttribute('data-v'),"
          + " y = b.cells[col].getAttribute('data-v');\n"
          + "      if (x === '' || y === '') { return x === y ? 0 : (x === '' ? 1 : -1); }\n"
          + "      return (num ? parseFloat(x) - parseFloat(y) : x.localeCompare(y)) * dir;\n"
          + "    });\n"
          + "    rows.forEach(function (row) { body.appendChild(row); });\n"
          + "  });\n"
          + "});\n"
          + "document.documentElement.setAttribute('data-ready', 'true');\n";

  @Override
  public void write(Report report, Appendable out) throws IOException {
    ReportData data = report.data();
    List<RunSummary> findings = report.runs();
    out.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    out.append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';")
        .append(" style-src 'unsafe-inline'; img-src data:; script-src '")
        .append(scriptHash())
        .append("'\">\n");
    out.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.append("<title>tokentrace report: ")
        .append(Html.text(data.database()))
        .append("</title>\n");
    out.append("<style>").append(HtmlStyle.CSS).append("</style></head>\n<body><main>\n");
    out.append(HtmlSections.header(data, findings));
    StringBuilder body = new StringBuilder();
    body.append(HtmlSections.bottleneck(report));
    body.append(HtmlCharts.attribution(data, findings.size()));
    body.append(HtmlCharts.ftlCdf(data));
    body.append(HtmlCharts.timelines(data));
    body.append(HtmlSections.findings(findings));
    body.append(HtmlDetails.coreMetrics(report));
    body.append(HtmlMatrix.section(data));
    body.append(HtmlDetails.slowest(data));
    body.append(HtmlGpu.section(report));
    body.append(HtmlSections.suggestions(report.suggestions()));
    body.append(HtmlSections.baseline(report));
    body.append(HtmlDetails.requests(data));
    body.append(HtmlSections.quality(report));
    body.append(HtmlEnvironment.environment(report));
    body.append(HtmlEnvironment.reproducibility(report));
    out.append(contents(body));
    out.append(body);
    out.append("</main>\n<script>").append(SCRIPT).append("</script>\n</body></html>\n");
  }

  private static final Pattern SECTION =
      Pattern.compile("<section id=\"([a-z0-9-]+)\"><h2>([^<]+)</h2>");

  /** A table of contents: a link to every section the page holds, in page order. */
  static String contents(CharSequence body) {
    StringBuilder nav = new StringBuilder("<nav class=\"toc\" aria-label=\"Contents\">");
    Matcher section = SECTION.matcher(body);
    while (section.find()) {
      nav.append("<a href=\"#")
          .append(section.group(1))
          .append("\">")
          .append(section.group(2))
          .append("</a>");
    }
    return nav.append("</nav>\n").toString();
  }

  /** The CSP source of the page's one script: its SHA-256, base64. */
  static String scriptHash() {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(SCRIPT.getBytes(StandardCharsets.UTF_8));
      return "sha256-" + Base64.getEncoder().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
