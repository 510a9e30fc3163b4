package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.Suggestion;
import dev.tokentrace.report.model.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The report's suggestions, each tied to the evidence of named runs: a lever is suggested only when
 * a run shows the signal it addresses (the seed's section 4: queueing → scheduling and batch size,
 * not faster GPUs; MLT growing with context → KV cache footprint and continuous batching; FTL
 * linear in the prompt → prefill; precision for per-token speed; scale-out when the server is
 * saturated).
 *
 * <p>(Longer than the house's 200 lines: one method per lever; the measurement levers are in {@link
 * SuggestionsOfData}.)
 */
final class Suggestions {
  /** Runs named in one suggestion before "and N more". */
  private static final int NAMED_RUNS = 3;

  private static final double KV_ROOM_PCT = 80.0;

  private Suggestions() {}

  static List<Suggestion> of(ReportData data, List<RunFinding> runs) {
    List<Suggestion> out = new ArrayList<>();
    queueing(data, runs, out);
    decode(runs, out);
    prefill(runs, out);
    outside(runs, out);
    SuggestionsOfData.add(data, runs, out);
    return out;
  }

  private static void queueing(ReportData data, List<RunFinding> runs, List<Suggestion> out) {
    List<RunFinding> queued =
        select(
            runs,
            run ->
                (run.sweep() != null && run.sweep().queueing())
                    || !run.batchBelow().isEmpty()
                    || (run.top() != null && RunSentences.isQueue(run.top())));
    if (queued.isEmpty()) {
      return;
    }
    RunFinding first = queued.get(0);
    StringBuilder evidence = new StringBuilder();
    if (first.sweep() != null && first.sweep().queueing()) {
      evidence.append(RunSentences.sweepEvidence(first.sweep()));
    } else if (first.top() != null) {
      evidence.append(
          format(
              "%s takes %s of the time",
              RunSentences.capitalized(RunSentences.label(first.top())),
              Numbers.share(first.top().share())));
    }
    if (!first.batchBelow().isEmpty()) {
      ReportEvidence.BatchWindow window = first.batchBelow().get(0);
      evidence.append(
          format(
              "%sthe server ran at most %d requests at once while the client had %d in flight",
              evidence.length() == 0 ? "" : ", and ",
              window.serverBatchMax(),
              window.clientInFlightMax()));
    }
    Double kv = peakKv(data, first.runId());
    String room =
        kv == null
            ? ""
            : kv < KV_ROOM_PCT
                ? format(" KV cache use peaked at %.1f%%: there is room for a larger batch.", kv)
                : format(" KV cache use peaked at %.1f%%: scale out rather than batch more.", kv);
    out.add(
        new Suggestion(
            "scheduling and batch size",
            Text.format(
                "Scheduling and batch size (%s): in %s, %s. Raise the maximum batch (vLLM"
                    + " --max-num-seqs, SGLang --max-running-requests, TensorRT-LLM"
                    + " --max_batch_size) or scale out to more replicas; a faster GPU does not"
                    + " shorten a queue.%s",
                names(queued), Inline.code(first.runId()), evidence.toString(), room),
            ids(queued)));
  }

  private static void decode(List<RunFinding> runs, List<Suggestion> out) {
    List<RunFinding> bandwidth = select(runs, run -> run.context() != null);
    if (!bandwidth.isEmpty()) {
      ReportEvidence.ContextBucket row = bandwidth.get(0).context();
      out.add(
          new Suggestion(
              "kv cache and precision",
              Text.format(
                  "Decode bandwidth (%s): ITL rises %s from short to long prompts (%+.1f ms per 1000"
                      + " tokens). Shrink the KV cache footprint (FP8 KV cache, a shorter maximum"
                      + " context), keep continuous batching on, and consider INT8/INT4 weights,"
                      + " often much faster at generation with little quality loss"
                      + " on chat and summaries.",
                  names(bandwidth), Numbers.change(row.mltRisePct()), row.mltSlopeMsPerKtoken()),
              ids(bandwidth)));
      return;
    }
    List<RunFinding> decoding = select(runs, run -> isTop(run, ComponentKind.DECODE));
    if (!decoding.isEmpty()) {
      RunFinding first = decoding.get(0);
      out.add(
          new Suggestion(
              "precision",
              Text.format(
                  "Per-token speed (%s): decode takes %s of the end-to-end time in %s with no"
                      + " sign that ITL grows with context (compute-bound steps). Lower the precision"
                      + " (FP8/INT8/INT4 weights), try speculative decoding, or use faster GPUs; a"
                      + " larger batch raises throughput, not a single request's speed.",
                  names(decoding), Numbers.share(first.top().share()), Inline.code(first.runId())),
              ids(decoding)));
    }
  }

  private static void prefill(List<RunFinding> runs, List<Suggestion> out) {
    List<RunFinding> prefill =
        select(
            runs,
            run ->
                isTop(run, ComponentKind.PREFILL)
                    || (run.prompt() != null
                        && run.second() != null
                        && run.second().component().equals(ComponentKind.PREFILL.id())));
    if (prefill.isEmpty()) {
      return;
    }
    RunFinding first = prefill.get(0);
    String slope =
        first.prompt() == null
            ? ""
            : format(
                ": TTFT grows %+.1f ms per 1000 prompt tokens (R² %.2f)",
                first.prompt().ftlSlopeMsPerKtoken(), first.prompt().ftlR2());
    out.add(
        new Suggestion(
            "chunked prefill",
            Text.format(
                "Prefill (%s)%s. Enable chunked prefill (vLLM --enable-chunked-prefill, SGLang"
                    + " --chunked-prefill-size) so long prompts do not stall running decodes,"
                    + " prefix caching for shared prompt prefixes, shorter prompts; tensor"
                    + " parallelism shortens the prefill of long prompts.",
                names(prefill), slope),
            ids(prefill)));
  }

  private static void outside(List<RunFinding> runs, List<Suggestion> out) {
    List<RunFinding> network =
        select(runs, run -> isTop(run, ComponentKind.NETWORK) || run.slowNetwork() > 0);
    if (!network.isEmpty()) {
      out.add(
          new Suggestion(
              "network",
              Text.format(
                  "Network and serving outside the engine (%s): move the client next to the server,"
                      + " check proxies, TLS termination and response serialization; %s lists the"
                      + " worst requests with their times.",
                  names(network), Inline.whole("tokentrace sql network_outliers")),
              ids(network)));
    }
    List<RunFinding> client = select(runs, run -> isTop(run, ComponentKind.CLIENT_QUEUE));
    if (!client.isEmpty()) {
      out.add(
          new Suggestion(
              "client",
              Text.format(
                  "Load generator (%s): the client held requests for %s of their time before"
                      + " sending. Raise its concurrency limit or lower its arrival rate; the server"
                      + " is not the bottleneck there.",
                  names(client), Numbers.share(client.get(0).top().share())),
              ids(client)));
    }
  }

  private static @Nullable Double peakKv(ReportData data, String runId) {
    Set<String> instances =
        data.evidence().runs().stream()
            .filter(run -> run.runId().equals(runId) && run.instances() != null)
            .flatMap(run -> List.of(run.instances().split(",")).stream())
            .collect(Collectors.toSet());
    return data.evidence().timeline().stream()
        .filter(point -> instances.contains(point.instance()) && point.kvMaxPct() != null)
        .map(ReportEvidence.TimelinePoint::kvMaxPct)
        .max(Double::compare)
        .orElse(null);
  }

  static boolean isTop(RunFinding run, ComponentKind component) {
    return run.top() != null && run.top().component().equals(component.id());
  }

  static List<RunFinding> select(List<RunFinding> runs, Predicate<RunFinding> rule) {
    return runs.stream().filter(rule).toList();
  }

  static List<String> ids(List<RunFinding> runs) {
    return runs.stream().map(RunFinding::runId).toList();
  }

  /** Up to three run names, then how many more. */
  static Text names(List<RunFinding> runs) {
    List<Text> named =
        runs.stream().limit(NAMED_RUNS).map(run -> Text.of(Inline.code(run.runId()))).toList();
    String more = runs.size() > NAMED_RUNS ? " and " + (runs.size() - NAMED_RUNS) + " more" : "";
    return Text.of(Text.join(", ", named), more);
  }

  static String format(String template, Object... values) {
    return String.format(Locale.ROOT, template, values);
  }
}
