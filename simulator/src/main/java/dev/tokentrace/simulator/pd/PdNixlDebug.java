package dev.tokentrace.simulator.pd;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Function;

/**
 * A vLLM decode server's log at {@code VLLM_LOGGING_LEVEL=DEBUG} as a collector keeps it
 * (docs/formats/pd.md#vllm-nixl-debug-lines): per request NIXL's read start ({@code Remote agent
 * <engine> available, calling _read_blocks ... for req <id>}, at the decode server's arrival: the
 * model posts the read at once) and the scheduler's {@code Finished recving KV transfer for request
 * <id>} (at the transfer's end), between the {@code KV Transfer metrics} interval lines; every line
 * behind a {@code kubectl logs --timestamps} time truncated to the millisecond
 * (docs/formats/collectors.md#kubectl-timestamps). IDs are engine-side ({@code chatcmpl-<id>-<8
 * hex>}, vLLM from v0.16.0, docs/formats/vllm.md#request-ids). Simulated; the truth is unchanged.
 */
final class PdNixlDebug {
  private static final DateTimeFormatter COLLECTOR =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT);
  private static final DateTimeFormatter HEADER =
      DateTimeFormatter.ofPattern("MM-dd HH:mm:ss", Locale.ROOT);

  private PdNixlDebug() {}

  private record Line(long us, int order, String text) {}

  /** Writes decode server {@code server}'s log; {@code sent} is the ID the proxy sent. */
  static void write(
      Path file, List<PdRequest> requests, int server, Function<PdRequest, String> sent)
      throws IOException {
    List<Line> lines = new ArrayList<>();
    for (PdRequest r : requests) {
      if (r.decodeServer() != server) {
        continue;
      }
      String id = engineId(r, sent);
      lines.add(
          new Line(
              r.decodeArrivalUs(),
              0,
              "(EngineCore_DP0 pid=4243) DEBUG "
                  + header(r.decodeArrivalUs())
                  + " [distributed/kv_transfer/kv_connector/v1/nixl_connector.py:2110] Remote agent "
                  + prefillEngine(r.prefillServer())
                  + " available, calling _read_blocks on remote rank 0 with remote block size 16"
                  + " for req "
                  + id));
      lines.add(
          new Line(
              r.kvReadyUs(),
              1,
              "(EngineCore_DP0 pid=4243) DEBUG "
                  + header(r.kvReadyUs())
                  + " [v1/core/sched/scheduler.py:1523] Finished recving KV transfer for request "
                  + id));
    }
    for (var entry : PdFiles.transferLines(requests, server).entrySet()) {
      String line = PdFiles.transferLine(PdFiles.instant(entry.getKey()), entry.getValue());
      lines.add(new Line(entry.getKey(), 2, line.substring(0, line.length() - 1)));
    }
    lines.sort(Comparator.comparingLong(Line::us).thenComparingInt(Line::order));
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      for (Line line : lines) {
        out.write(collector(line.us()) + " " + line.text() + "\n");
      }
    }
  }

  /** The engine-side ID: the server's {@code chatcmpl-<sent id>} with a fixed 8-hex suffix. */
  static String engineId(PdRequest r, Function<PdRequest, String> sent) {
    long hex = (r.index() * 2_654_435_761L + 0x5eed) & 0xffff_ffffL;
    return "chatcmpl-" + sent.apply(r) + "-" + String.format(Locale.ROOT, "%08x", hex);
  }

  /** The prefill server's NIXL engine ID (vLLM makes a uuid4 per server; fixed here). */
  private static String prefillEngine(int p) {
    return new UUID(0x6e69786c_00000000L | p, 0x8000_0000_0000_0000L | (p * 104_729L)).toString();
  }

  /** vLLM's header time: the model instant's second. */
  private static String header(long us) {
    return LocalDateTime.ofInstant(millisOf(us), ZoneOffset.UTC).format(HEADER);
  }

  /** The collector's time of a line logged at {@code us}: to the millisecond, truncated. */
  private static String collector(long us) {
    return LocalDateTime.ofInstant(millisOf(us), ZoneOffset.UTC).format(COLLECTOR);
  }

  private static Instant millisOf(long us) {
    return PdFiles.START.plusMillis(Math.floorDiv(us, 1000));
  }
}
