package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.store.query.MarkdownTable;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The report's environment section (the seed's 测试环境): each server instance with its engine, version
 * where a log states it, sources, time span and what it said at startup; its configuration setting
 * by setting, with what is unknown and how to record it ({@link MarkdownConfig}); each client run
 * with its format, requests and levels, and the load it put on the servers (prompt and output
 * lengths, concurrency). Files and hashes are in the reproducibility appendix.
 */
final class MarkdownEnvironment {
  /** Startup and config facts shown per instance; `sql` lists them all. */
  static final int FACTS_PER_INSTANCE = 4;

  private MarkdownEnvironment() {}

  static String section(Report report) {
    ReportData data = report.data();
    StringBuilder out = new StringBuilder("## Environment\n\n");
    ReportEvidence evidence = data.evidence();
    if (evidence.instances().isEmpty()) {
      out.append(data.sources().isEmpty() ? "No server data is loaded.\n\n" : sources(data));
    } else {
      out.append("Servers, as their logs describe them:\n\n");
      for (ReportEvidence.Instance instance : evidence.instances()) {
        out.append(Prose.bullet(instance(instance, evidence.facts())));
      }
      out.append('\n');
      out.append(MarkdownConfig.configuration(report));
    }
    List<ReportEvidence.RunOverview> runs = evidence.clientRuns();
    if (!runs.isEmpty()) {
      out.append("Client runs:\n\n");
      for (ReportEvidence.RunOverview run : runs) {
        out.append(Prose.bullet(run(run)));
      }
      out.append('\n');
    }
    out.append(MarkdownConfig.load(report));
    if (!data.files().isEmpty()) {
      out.append(
          Prose.paragraph(
              Numbers.count(data.files().size(), "loaded file")
                  + " with their sizes and SHA-256 hashes, and the commands and options of every"
                  + " run, are listed under Reproducibility."));
    }
    return out.toString();
  }

  private static String instance(
      ReportEvidence.Instance instance, List<ReportEvidence.Fact> facts) {
    StringBuilder text =
        new StringBuilder(MarkdownText.code(instance.instance()))
            .append(": ")
            .append(instance.engine())
            .append(instance.version() == null ? "" : " " + MarkdownText.code(instance.version()))
            .append(", ")
            .append(Numbers.count(instance.files(), "file"));
    if (instance.requestTimingRows() > 0) {
      text.append(", ")
          .append(Numbers.count(instance.requestTimingRows(), "per-request record"))
          .append(" (")
          .append(instance.requestSources())
          .append(')');
    }
    appendCount(text, instance.arrivals(), "text-log arrival");
    appendCount(text, instance.statsSnapshots(), "stats snapshot");
    appendCount(text, instance.batchSteps(), "batch step");
    appendCount(text, instance.notices(), "notice");
    text.append("; ").append(span(instance.firstTs(), instance.lastTs())).append('.');
    List<String> said =
        facts.stream()
            .filter(fact -> fact.instance().equals(instance.instance()))
            .limit(FACTS_PER_INSTANCE)
            .map(fact -> MarkdownText.code(fact.message()))
            .toList();
    if (!said.isEmpty()) {
      text.append(" Startup: ").append(String.join(", ", said)).append('.');
    }
    return text.toString();
  }

  private static String run(ReportEvidence.RunOverview run) {
    String format = run.clientFormats() == null ? "" : run.clientFormats() + " ";
    return String.format(
        Locale.ROOT,
        "%s: %d %s%s, %s (%d warm-up, %d with errors), concurrency %s%s; %d attributed%s.",
        MarkdownText.code(run.runId()),
        run.files(),
        format,
        run.files() == 1 ? "file" : "files",
        Numbers.count(run.requests(), "request"),
        run.warmupRequests(),
        run.errorRequests(),
        run.concurrencyLevels() == null ? "unknown" : run.concurrencyLevels(),
        run.instances() == null ? "" : ", served by " + instances(run.instances()),
        run.attributedRequests(),
        run.vantage() == null ? "" : ", from " + run.vantage());
  }

  /** Instance names from the logs (comma-separated): each a code span, never markup. */
  private static String instances(String names) {
    return Arrays.stream(names.split(","))
        .map(MarkdownText::code)
        .collect(Collectors.joining(", "));
  }

  /** The pre-evidence table of sources, for data without the environment queries. */
  private static String sources(ReportData data) {
    MarkdownTable sources =
        new MarkdownTable("engine", "instance", "table", "source", ">events", ">files");
    for (ReportData.Source source : data.sources()) {
      sources.row(
          source.engine(),
          source.instance(),
          source.sourceTable(),
          source.sourceKind(),
          Long.toString(source.events()),
          Long.toString(source.files()));
    }
    return sources.render() + "\n";
  }

  private static void appendCount(StringBuilder text, long count, String noun) {
    if (count > 0) {
      text.append(", ").append(Numbers.count(count, noun));
    }
  }

  static String span(@Nullable Instant first, @Nullable Instant last) {
    if (first == null || last == null) {
      return "no timestamps";
    }
    return first + " to " + last;
  }
}
