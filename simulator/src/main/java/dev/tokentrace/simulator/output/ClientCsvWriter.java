package dev.tokentrace.simulator.output;

import dev.tokentrace.measure.ClientCsv;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;
import java.time.ZoneOffset;

/**
 * The project's client CSV ({@code client_timings.csv}, columns and quoting: {@link ClientCsv}):
 * one row per client request, its final attempt, in completion order. {@code start_ts} is when the
 * client issued the request (UTC, microseconds); {@code ttft_ms} and {@code e2e_ms} are measured
 * from it and so include {@code client_queue_ms}, as the attribution formulas
 * (docs/design.md#attribution) expect. A retry is a fresh start with no client queue. Timed-out
 * requests have status {@code timeout}, no output count and, unless a token arrived, no TTFT. A
 * client that counts SSE heartbeats reports their arrival as TTFT and adds them to the token count.
 * {@code warmup} marks the run's first requests.
 */
final class ClientCsvWriter implements SimObserver, Closeable {
  private final TextFile out;
  private final WallClock utc;
  private final OutputSettings output;

  ClientCsvWriter(TextFile out, OutputSettings output) {
    this.out = out;
    this.output = output;
    this.utc = new WallClock(output.start(), ZoneOffset.UTC);
    out.write(ClientCsv.HEADER + "\n");
  }

  @Override
  public void clientDone(RequestView request) {
    if (!request.finalAttempt()) {
      return;
    }
    StringBuilder start = new StringBuilder(27);
    utc.isoMicros(start, request.issuedUs());
    ClientCsv.appendRow(
        out.begin(),
        ServerIds.clientSide(request, output.format(), output.api()),
        start,
        request.reportedTtftUs() >= 0
            ? Decimals.millis(new StringBuilder(), request.reportedTtftUs())
            : null,
        Decimals.millis(new StringBuilder(), request.clientEndUs() - request.issuedUs()),
        request.timedOut() ? null : request.reportedOutputTokens(),
        Decimals.millis(new StringBuilder(), request.clientQueueUs()),
        request.promptTokens(),
        request.concurrency() > 0 ? request.concurrency() : null,
        request.timedOut() ? "timeout" : "ok",
        request.warmup());
    out.end();
  }

  @Override
  public void close() {
    out.close();
  }
}
