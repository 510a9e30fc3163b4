package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;
import java.time.ZoneOffset;

/**
 * The project's client CSV ({@code client_timings.csv}): one row per client request, its final
 * attempt, in completion order. {@code start_ts} is when the client issued the request (UTC,
 * microseconds); {@code ttft_ms} and {@code e2e_ms} are measured from it and so include {@code
 * client_queue_ms}, as the attribution formulas (docs/design.md#attribution) expect. A retry is a
 * fresh start with no client queue. Timed-out requests have status {@code timeout}, no output count
 * and, unless a token arrived, no TTFT. A client that counts SSE heartbeats reports their arrival
 * as TTFT and adds them to the token count. {@code warmup} marks the run's first requests.
 */
final class ClientCsvWriter implements SimObserver, Closeable {
  static final String HEADER =
      "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,client_queue_ms,prompt_tokens,"
          + "concurrency,status,warmup";

  private final TextFile out;
  private final WallClock utc;
  private final OutputSettings output;

  ClientCsvWriter(TextFile out, OutputSettings output) {
    this.out = out;
    this.output = output;
    this.utc = new WallClock(output.start(), ZoneOffset.UTC);
    out.write(HEADER + "\n");
  }

  @Override
  public void clientDone(RequestView request) {
    if (!request.finalAttempt()) {
      return;
    }
    StringBuilder line = out.begin();
    line.append(ServerIds.clientSide(request, output.format(), output.api())).append(',');
    utc.isoMicros(line, request.issuedUs());
    line.append(',');
    if (request.reportedTtftUs() >= 0) {
      Decimals.millis(line, request.reportedTtftUs());
    }
    line.append(',');
    Decimals.millis(line, request.clientEndUs() - request.issuedUs()).append(',');
    if (!request.timedOut()) {
      line.append(request.reportedOutputTokens());
    }
    line.append(',');
    Decimals.millis(line, request.clientQueueUs()).append(',');
    line.append(request.promptTokens()).append(',');
    if (request.concurrency() > 0) {
      line.append(request.concurrency());
    }
    line.append(',').append(request.timedOut() ? "timeout" : "ok");
    line.append(',').append(request.warmup());
    out.end();
  }

  @Override
  public void close() {
    out.close();
  }
}
