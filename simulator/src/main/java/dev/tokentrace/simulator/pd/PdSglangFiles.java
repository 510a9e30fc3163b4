package dev.tokentrace.simulator.pd;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.SplittableRandom;

/**
 * Writes a P/D run in SGLang's format (docs/formats/pd.md#simulator): per prefill and per decode
 * server a log ({@code prefill-N/server.log}, {@code decode-N/server.log}) with the {@code
 * --enable-request-time-stats-logging} line of every request it finished, in the 2026-05-06 layout
 * (docs/formats/pd.md#sglang-time-stats), each at the request's completion on that server and in
 * that order. The client sets {@code rid} (its own ID), so both servers name the request by it; the
 * router's {@code bootstrap_room} is a random 63-bit integer shared by both lines. The prefill
 * server's line holds the transfer from the end of its prefill: {@code forward_duration} is prefill
 * plus transfer, {@code transfer_total} the KV cache's size, {@code transfer_speed} the size over
 * the transfer's time (the wait for the link included, as SGLang measures from the transfer queue's
 * entry); the first {@link #BOOTSTRAP_US} of its wait is the bootstrap handshake.
 */
final class PdSglangFiles {
  /** The prefill server's bootstrap handshake, when it waited that long (our model's constant). */
  static final long BOOTSTRAP_US = 800;

  private static final double MB = 1 << 20;
  private static final DateTimeFormatter LOG_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  private PdSglangFiles() {}

  /**
   * @param noRid the client sets no rid: each server names the request by a 32-hex uuid of its own
   *     (SGLang's {@code uuid.uuid4().hex}), different on the two servers
   */
  static void write(PdScenario scenario, Path dir, List<PdRequest> requests, boolean noRid) {
    try {
      for (int p = 0; p < scenario.prefillServers(); p++) {
        List<Line> lines = new ArrayList<>();
        for (PdRequest r : requests) {
          if (r.prefillServer() == p) {
            lines.add(
                new Line(
                    r.prefillFirstTokenUs() + r.kvTransferUs(),
                    prefill(r, scenario, noRid, PdFiles.START)));
          }
        }
        log(dir.resolve(PdFiles.prefill(p)).resolve("server.log"), lines);
      }
      for (int d = 0; d < scenario.decodeServers(); d++) {
        List<Line> lines = new ArrayList<>();
        for (PdRequest r : requests) {
          if (r.decodeServer() == d) {
            lines.add(new Line(r.decodeLastTokenUs(), decode(r, scenario, noRid, PdFiles.START)));
          }
        }
        log(dir.resolve(PdFiles.decode(d)).resolve("server.log"), lines);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir, e);
    }
  }

  /** The prefill server's line of {@code r} (without its header), model time 0 at {@code base}. */
  static String prefill(PdRequest r, PdScenario scenario, boolean noRid, Instant base) {
    long bootstrap = Math.min(BOOTSTRAP_US, r.prefillQueueUs());
    double mb = r.kvBytes() / MB;
    double gbPerS = mb / 1024 / (r.kvTransferUs() / 1e6);
    return head(r, scenario, 1, "prefill", noRid)
        + String.format(
            Locale.ROOT,
            "bootstrap_duration=%s, alloc_wait_duration=0.00ms, queue_duration=%s,"
                + " forward_duration=%s, entry_time=%s, transfer_speed=%.2f GB/s,"
                + " transfer_total=%.2f MB, #retries=0",
            ms(bootstrap),
            ms(r.prefillQueueUs() - bootstrap),
            ms(r.prefillUs() + r.kvTransferUs()),
            epoch(base, r.prefillArrivalUs()),
            gbPerS,
            mb);
  }

  /** The decode server's line of {@code r} (without its header), model time 0 at {@code base}. */
  static String decode(PdRequest r, PdScenario scenario, boolean noRid, Instant base) {
    return head(r, scenario, r.outputTokens(), "decode", noRid)
        + String.format(
            Locale.ROOT,
            "prealloc_queue_duration=0.00ms, transfer_duration=%s, queue_duration=%s,"
                + " forward_duration=%s, entry_time=%s",
            ms(r.kvTransferUs()),
            ms(r.decodeQueueUs()),
            ms(r.decodeUs()),
            epoch(base, r.decodeArrivalUs()));
  }

  private static String head(
      PdRequest r, PdScenario scenario, int output, String type, boolean noRid) {
    SplittableRandom random = new SplittableRandom(scenario.seed() * 1_000_003L + r.index());
    long room = random.nextLong();
    String rid = r.id();
    if (noRid) {
      // the server's own uuid: a different one on each server (the prefill's first, then the
      // decode's, from the same seeded stream)
      long[] bits = {random.nextLong(), random.nextLong(), random.nextLong(), random.nextLong()};
      int at = type.equals("prefill") ? 0 : 2;
      rid = String.format(Locale.ROOT, "%016x%016x", bits[at], bits[at + 1]);
    }
    return "ReqTimeStats(rid="
        + rid
        + ", bootstrap_room="
        + (room & Long.MAX_VALUE)
        + ", input_len="
        + r.promptTokens()
        + ", cached_input_len=0, output_len="
        + output
        + ", type="
        + type
        + "): ";
  }

  private static void log(Path file, List<Line> lines) throws IOException {
    Files.createDirectories(file.getParent());
    lines.sort(Comparator.comparingLong(Line::atUs));
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      for (Line line : lines) {
        out.write(logLine(PdFiles.START, line.atUs(), line.text()));
      }
    }
  }

  /** SGLang's {@code format_duration}: ms with two decimals and the unit. */
  private static String ms(long us) {
    return String.format(Locale.ROOT, "%.2fms", us / 1e3);
  }

  /** SGLang's {@code format_wallclock}: epoch seconds with three decimals. */
  private static String epoch(Instant base, long simUs) {
    return String.format(
        Locale.ROOT, "%.3f", base.getEpochSecond() + (base.getNano() / 1000 + simUs) / 1e6);
  }

  /**
   * {@code text} as the log line SGLang writes at model time {@code atUs} (model time 0 at {@code
   * base}): its header, then the text and a line end.
   */
  static String logLine(Instant base, long atUs, String text) {
    return "["
        + LocalDateTime.ofInstant(base.plusNanos(atUs * 1000), ZoneOffset.UTC).format(LOG_TIME)
        + "] "
        + text
        + "\n";
  }

  private record Line(long atUs, String text) {}
}
