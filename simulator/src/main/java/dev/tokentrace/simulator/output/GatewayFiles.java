package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * What the black-box vantage points of a simulated gateway scenario write
 * (docs/formats/gateways.md#simulated-gateway): the gateway's NGINX access log in our {@code
 * log_format tokentrace} and Envoy's default access-log format, and, when the client's files are
 * written, a JMeter JTL CSV and our wrk script's rows for the same requests; plus {@code
 * gateway_truth.csv}, each attempt's true legs and the delays drawn for it. One line per attempt,
 * in the order the client finished with them.
 */
final class GatewayFiles implements SimObserver, Closeable {
  static final String NGINX = "client_nginx_access.log";
  static final String ENVOY = "client_envoy_access.log";
  static final String JTL = "client_jmeter.jtl";
  static final String WRK = "client_wrk.csv";
  static final String TRUTH = "gateway_truth.csv";

  static final String JTL_HEADER =
      "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
          + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,"
          + "request_id";
  static final String WRK_HEADER = "request_id,start_us,end_us,status,bytes";
  static final String TRUTH_HEADER =
      "request_id,attempt,final,status,gateway_start_ts,gateway_e2e_ms,network_client_gateway_ms,"
          + "network_gateway_engine_ms,injected_client_gateway_ms,injected_gateway_engine_ms";

  private static final String UPSTREAM = "127.0.0.1:8000";
  private static final DateTimeFormatter ENVOY_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private final TextFile nginx;
  private final TextFile envoy;
  private final TextFile truth;
  private final TextFile jtl;
  private final TextFile wrk;
  private final OutputSettings output;
  private final long startEpochUs;
  private final WallClock utc;

  private GatewayFiles(Path dir, OutputSettings output) {
    this.output = output;
    Instant start = output.start();
    this.startEpochUs = start.getEpochSecond() * 1_000_000L + start.getNano() / 1_000;
    this.utc = new WallClock(start, ZoneOffset.UTC);
    this.nginx = TextFile.create(dir.resolve(NGINX));
    this.envoy = TextFile.create(dir.resolve(ENVOY));
    this.truth = TextFile.create(dir.resolve(TRUTH));
    truth.write(TRUTH_HEADER + "\n");
    if (output.clientFile()) {
      this.jtl = TextFile.create(dir.resolve(JTL));
      this.wrk = TextFile.create(dir.resolve(WRK));
      jtl.write(JTL_HEADER + "\n");
      wrk.write(WRK_HEADER + "\n");
    } else {
      this.jtl = null;
      this.wrk = null;
    }
  }

  /** Opens the gateway's files when the simulation has a gateway. */
  static void open(
      boolean gateway,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files) {
    if (gateway) {
      GatewayFiles writer = new GatewayFiles(dir, output);
      observers.add(writer);
      files.add(writer);
    }
  }

  @Override
  public void clientDone(RequestView request) {
    if (request.gatewayStartUs() < 0) {
      return;
    }
    String id = ServerIds.clientSide(request, output.format(), output.api());
    boolean completed = !request.timedOut() && request.gatewayEndUs() >= 0;
    // the gateway's clock ticks in ms: NGINX and Envoy keep start and end truncated to the ms
    long startMs = Math.floorDiv(startEpochUs + request.gatewayStartUs(), 1000);
    long gatewayEndUs =
        completed
            ? request.gatewayEndUs()
            // the client's close reaches the gateway one client uplink after it gave up
            : request.clientEndUs() + (request.gatewayStartUs() - request.sentUs());
    long endMs = Math.floorDiv(startEpochUs + gatewayEndUs, 1000);
    long durationMs = endMs - startMs;
    int status = completed ? 200 : 499;
    long bytes = completed ? 180L + 120L * request.generatedTokens() : 0;
    boolean reached = request.serverArrivalUs() >= 0;
    long headerMs =
        reached
            ? Math.floorDiv(
                    request.gatewayStartUs()
                        + request.gatewayUplinkUs()
                        + request.gatewayDownlinkUs(),
                    1000)
                - Math.floorDiv(request.gatewayStartUs(), 1000)
            : -1;
    nginx(id, request.nonce(), endMs, durationMs, status, reached, headerMs, bytes);
    envoy(id, startMs, durationMs, status, reached, headerMs, bytes);
    truth(id, request, completed, gatewayEndUs);
    if (jtl != null && request.finalAttempt()) {
      jtl(id, request, completed, bytes);
      wrk(id, request, completed, bytes);
    }
  }

  /** Our log_format (docs/guide.md "NGINX"): $msec is the end, $request_time the duration. */
  private void nginx(
      String id,
      long nonce,
      long endMs,
      long durationMs,
      int status,
      boolean reached,
      long headerMs,
      long bytes) {
    StringBuilder line = nginx.begin();
    seconds(line, endMs).append(' ').append(status).append(' ');
    seconds(line, durationMs).append(" \"").append(id).append("\" \"");
    line.append(String.format(Locale.ROOT, "%016x%016x", nonce, ~nonce)).append("\" \"");
    if (reached) {
      line.append(UPSTREAM).append("\" \"").append(status == 499 ? "-" : "200").append("\" \"");
      line.append("0.000\" \"");
      if (status == 499) {
        line.append("-\" \"");
      } else {
        seconds(line, headerMs).append("\" \"");
      }
      seconds(line, durationMs).append("\" ");
    } else {
      line.append("-\" \"-\" \"-\" \"-\" \"-\" ");
    }
    line.append(bytes);
    nginx.end();
  }

  /** Envoy's default format string (docs/formats/gateways.md#envoy-default). */
  private void envoy(
      String id,
      long startMs,
      long durationMs,
      int status,
      boolean reached,
      long headerMs,
      long bytes) {
    StringBuilder line = envoy.begin();
    line.append('[').append(ENVOY_TIME.format(Instant.ofEpochMilli(startMs))).append("] \"POST ");
    line.append(output.api().path()).append(" HTTP/1.1\" ");
    line.append(status == 499 ? 0 : status).append(status == 499 ? " DC " : " - ");
    line.append(320).append(' ').append(bytes).append(' ').append(durationMs).append(' ');
    line.append(reached && status != 499 ? Long.toString(headerMs) : "-");
    line.append(" \"-\" \"tokentrace-sim\" \"").append(id).append("\" \"llm.local\" \"");
    line.append(reached ? UPSTREAM : "-").append('"');
    envoy.end();
  }

  private void truth(String id, RequestView request, boolean completed, long gatewayEndUs) {
    StringBuilder line = truth.begin();
    line.append(id).append(',').append(request.attempt()).append(',');
    line.append(request.finalAttempt()).append(',').append(completed ? "ok" : "timeout");
    line.append(',');
    utc.isoMicros(line, request.gatewayStartUs());
    line.append(',');
    Decimals.millis(line, gatewayEndUs - request.gatewayStartUs()).append(',');
    if (completed) {
      long clientLeg =
          request.clientEndUs() - request.sentUs() - (gatewayEndUs - request.gatewayStartUs());
      Components parts = Components.of(request);
      Decimals.millis(line, clientLeg).append(',');
      Decimals.millis(line, parts.networkUs() - clientLeg);
    } else {
      line.append(',');
    }
    line.append(',');
    if (completed) {
      // the delays drawn: the client's uplink and its last token's downlink; the gateway's pair
      long drawnClient =
          request.gatewayStartUs() - request.sentUs() + request.clientEndUs() - gatewayEndUs;
      Decimals.millis(line, drawnClient);
    }
    line.append(',');
    Decimals.millis(line, request.gatewayUplinkUs() + request.gatewayDownlinkUs());
    truth.end();
  }

  /**
   * JMeter 5.6's default CSV columns with {@code sampleresult.timestamp.start=true}: timeStamp is
   * when the request was sent (JMeter has no client queue), elapsed to the last byte, Latency to
   * the first byte (the response header, sent when the server took the request).
   */
  private void jtl(String id, RequestView request, boolean completed, long bytes) {
    long sentMs = Math.floorDiv(startEpochUs + request.sentUs(), 1000);
    long elapsed = Math.floorDiv(startEpochUs + request.clientEndUs(), 1000) - sentMs;
    long latency =
        request.serverArrivalUs() >= 0
            ? Math.max(
                0,
                Math.floorDiv(
                        startEpochUs
                            + request.serverArrivalUs()
                            + request.gatewayDownlinkUs()
                            + (request.clientEndUs() - request.gatewayEndUs()),
                        1000)
                    - sentMs)
            : elapsed;
    StringBuilder line = jtl.begin();
    line.append(sentMs).append(',').append(elapsed).append(",completion,");
    line.append(
        completed
            ? "200,OK"
            : "Non HTTP response code: java.net.SocketTimeoutException,"
                + "Non HTTP response message: Read timed out");
    line.append(",users 1-").append(request.index() % Math.max(1, request.concurrency()) + 1);
    line.append(",text,").append(completed).append(",,").append(bytes).append(",320,");
    line.append(Math.max(1, request.concurrency())).append(',');
    line.append(Math.max(1, request.concurrency())).append(",http://");
    line.append(UPSTREAM).append(output.api().path()).append(',');
    line.append(completed ? latency : 0).append(",0,0,").append(id);
    jtl.end();
  }

  /** scripts/wrk/tokentrace.lua's rows: epoch microseconds from request() to response(). */
  private void wrk(String id, RequestView request, boolean completed, long bytes) {
    if (!completed) {
      return; // wrk's timeout is an error count, no response() call, no row
    }
    StringBuilder line = wrk.begin();
    line.append(id).append(',').append(startEpochUs + request.sentUs()).append(',');
    line.append(startEpochUs + request.clientEndUs()).append(",200,").append(bytes);
    wrk.end();
  }

  private static StringBuilder seconds(StringBuilder out, long millis) {
    out.append(Math.floorDiv(millis, 1000)).append('.');
    long fraction = Math.floorMod(millis, 1000);
    if (fraction < 100) {
      out.append('0');
    }
    if (fraction < 10) {
      out.append('0');
    }
    return out.append(fraction);
  }

  @Override
  public void close() {
    nginx.close();
    envoy.close();
    truth.close();
    if (jtl != null) {
      jtl.close();
      wrk.close();
    }
  }
}
