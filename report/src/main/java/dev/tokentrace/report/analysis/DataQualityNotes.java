package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.Text;
import dev.tokentrace.store.rows.ClockOffset;
import dev.tokentrace.store.rows.DataQuality;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's data-quality notes: join rate, unmatched requests on both sides, duplicates, suspect
 * pairs, low-confidence sources, heuristic pairs, rows without a usable ID, retries, clock offsets
 * (with what a flagged one means), warm-up and rejected input. A note with a zero count is left
 * out, except the join and suspect lines, which are always shown.
 */
final class DataQualityNotes {
  private DataQualityNotes() {}

  /** The notes as sentences; log-derived text and commands are code. */
  static List<Text> notes(ReportData data) {
    DataQuality q = data.quality();
    List<Text> notes = new ArrayList<>();
    notes.add(
        Text.format(
            "Join: %d of %s have a server record (%s); %d attributed.",
            q.clientRows() - q.clientOnlyRows(),
            Numbers.count(q.clientRows(), "client request"),
            Numbers.share(q.joinRate()),
            q.includedRows()));
    if (q.clientOnlyRows() > 0) {
      notes.add(
          Text.format(
              "Client only: %d (failed before the server, retried, or the ID did not reach the"
                  + " server): %s.",
              q.clientOnlyRows(),
              Inline.whole("tokentrace sql unmatched_requests --param kind=client_only")));
    }
    String rewritten = data.pd().unjoinedNote();
    if (rewritten != null) {
      notes.add(Text.of(rewritten));
    }
    if (q.serverOnlyKeys() > 0) {
      notes.add(
          Text.format(
              "Server only: %d request keys that no client file has (other tenants, health checks, or a"
                  + " client file not loaded).",
              q.serverOnlyKeys()));
    }
    if (q.duplicateRows() > 0) {
      notes.add(
          Text.format(
              "Duplicate keys: %d on the client side (retries), %d on the server side (n > 1,"
                  + " repeated records); their %s listed, never attributed.",
              q.duplicateClientKeys(),
              q.duplicateServerKeys(),
              Numbers.count(q.duplicateRows(), "request")
                  + (q.duplicateRows() == 1 ? " is" : " are")));
    }
    notes.add(
        Text.format(
            "Suspect pairs: %d (network time below the tolerance: an ID or clock mismatch), left out"
                + " of the aggregates.",
            q.suspectRows()));
    lowConfidence(data, q, notes);
    pairing(data, q, notes);
    clocks(data, notes);
    counts(q, notes);
    return notes;
  }

  private static void lowConfidence(ReportData data, DataQuality q, List<Text> notes) {
    if (q.arrivalOnlyRows() > 0) {
      boolean vllmTextLogs =
          data.sources().stream()
              .anyMatch(
                  s -> s.engine().equals("vllm") && s.sourceTable().equals("request_arrived"));
      notes.add(
          Text.format(
              "Low confidence: %s known only from text-log arrivals%s; no server component is"
                  + " computed for them.",
              Numbers.count(q.arrivalOnlyRows(), "request"),
              vllmTextLogs ? " (vLLM text logs: 1 s timestamps, no per-request durations)" : ""));
    }
    if (q.incompleteRows() > 0) {
      notes.add(
          Text.format(
              "Low confidence: %s matched to server records that lack a phase (e.g. SGLang before"
                  + " v0.5.5 logs only e2e_latency); no server component is computed for them.",
              Numbers.count(q.incompleteRows(), "request")));
    }
    if (q.derivedRows() > 0) {
      notes.add(
          Text.format(
              "Derived phases: prefill or decode computed from server TTFT and E2E for %s"
                  + " (sources without the phase, e.g. vLLM V0 spans).",
              Numbers.count(q.derivedRows(), "request")));
    }
    if (q.tokenMismatchRows() > 0) {
      notes.add(
          Text.format(
              "Token counts differ between client and server for %s (did the client count SSE"
                  + " heartbeats or empty chunks as tokens?).",
              Numbers.count(q.tokenMismatchRows(), "request")));
    }
  }

  /** Heuristic pairs, rows no ID can join, and retries the server saw. */
  private static void pairing(ReportData data, DataQuality q, List<Text> notes) {
    if (q.heuristicRows() > 0) {
      notes.add(
          Text.format(
              "Heuristic matches: %s paired by time window and token counts (--match heuristic),"
                  + " not by ID; labelled %s in join_status and confidence%s.",
              Numbers.count(q.heuristicRows(), "request"),
              Inline.whole("heuristic"),
              q.ambiguousRows() == 0
                  ? ""
                  : format(
                      "; %d paired without times among several candidates %s left out of the"
                          + " aggregates",
                      q.ambiguousRows(), q.ambiguousRows() == 1 ? "is" : "are")));
    }
    if (q.unjoinableRows() > 0) {
      notes.add(
          Text.format(
              "No usable ID: %s %s an ID the server never saw (SGLang bench, LLMPerf, GuideLLM"
                  + " without response_id, vLLM bench without --request-id-prefix)%s.",
              Numbers.count(q.unjoinableRows(), "client request"),
              q.unjoinableRows() == 1 ? "carries" : "carry",
              data.settings().heuristicMatch()
                  ? Text.of(" and found no heuristic pair")
                  : Text.of(
                      "; ",
                      Inline.whole("tokentrace correlate --match heuristic"),
                      " pairs them by time and tokens")));
    }
    if (q.serverRetriedKeys() > 0) {
      notes.add(
          Text.format(
              "Retries: %s arrived at the server more than once (a client retrying with the same"
                  + " ID); %s attributed once, from the final attempt's record, the others listed"
                  + " as duplicates and not attributed: %s.",
              Numbers.count(q.serverRetriedKeys(), "request key"),
              Numbers.count(q.retriedAttributedRows(), "client request"),
              Inline.whole("tokentrace sql retried_requests")));
    }
  }

  /** One note per clock offset estimate; a flagged one says what to do. */
  private static void clocks(ReportData data, List<Text> notes) {
    for (ClockOffset clock : data.clocks()) {
      String basis =
          clock.timeSeries()
              ? format(
                  "lined up by time series (%s client and %s server requests, fit %.1f ms%s)",
                  clock.clientRequests(),
                  clock.serverRequests(),
                  clock.fitMs(),
                  clock.runnerUpFitMs() == null
                      ? ""
                      : format(", next best %.1f ms", clock.runnerUpFitMs()))
              : format("%d of %d ID-paired requests", clock.usedPairs(), clock.pairs());
      // a steady server clock counts from an arbitrary start (often boot): its offset to a wall
      // clock is the difference of the two clock domains, not a skew to worry about
      boolean domains = clock.serverClock() != null && !"wall".equals(clock.serverClock());
      notes.add(
          Text.format(
              "Clock, run %s on %s (%s client clock): server minus client %s%s, spread %s, %s%s.",
              Inline.code(clock.runId()),
              Inline.code(clock.instance()),
              clock.clientClock(),
              Numbers.offset(clock.offsetMs()),
              domains
                  ? format(
                      " (the server's %s clock counts from its own start: a difference of clock"
                          + " domains, not skew)",
                      clock.serverClock())
                  : "",
              Numbers.offset(clock.spreadMs()).substring(1),
              basis,
              clock.flag() == null ? "" : format(" [%s]: %s", clock.flag(), clock.hint())));
    }
  }

  private static void counts(DataQuality q, List<Text> notes) {
    if (q.warmupRows() > 0 || q.clientErrorRows() > 0) {
      notes.add(
          Text.format(
              "Excluded: %s, %s.",
              Numbers.count(q.warmupRows(), "warm-up request"),
              Numbers.count(q.clientErrorRows(), "client error")));
    }
    if (q.clientRows() > 0 && q.clientQueueRows() < q.clientRows()) {
      notes.add(
          Text.format(
              "Client queueing was recorded for %d of %d requests and taken as 0 elsewhere.",
              q.clientQueueRows(), q.clientRows()));
    }
    if (q.clientRejects() > 0 || q.serverRejects() > 0) {
      notes.add(
          Text.format(
              "Rejected input: %s, %s (table %s).",
              Numbers.count(q.clientRejects(), "client row"),
              Numbers.count(q.serverRejects(), "server line"),
              Inline.whole("rejects")));
    }
  }

  private static String format(String template, Object... values) {
    return String.format(Locale.ROOT, template, values);
  }
}
