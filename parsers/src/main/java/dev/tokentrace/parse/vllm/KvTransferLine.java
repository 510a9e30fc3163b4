package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.parse.Numbers;
import dev.tokentrace.parse.ParseOutput;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * vLLM's {@code KV Transfer metrics: k=v, k=v, ...} line
 * (docs/formats/pd.md#vllm-kv-transfer-metrics): the KV connector's aggregate over one stats-log
 * interval, logged by the server that pulled the KV cache (the decode server with NIXL). Becomes a
 * {@code kv_transfer} interval row: successful transfers, mean and P90 transfer time, mean MB per
 * transfer, throughput, failed and expired counts; keys it does not know are skipped, and a line
 * without {@code Num successful transfers} (another connector's keys) is ignored by name. The
 * interval is the time since this source's last such line (null for the first). Not thread-safe:
 * one instance per source.
 */
final class KvTransferLine {
  static final String PREFIX = "KV Transfer metrics: ";

  /**
   * vLLM 2025-09/10 wrote the connector type first (docs/formats/pd.md#vllm-kv-transfer-metrics).
   */
  static final String TYPED_PREFIX = "KVConnectorType: ";

  /** The rule of a line without the NIXL-style keys (the name the line had before it was read). */
  static final String OTHER_CONNECTOR = "vllm: kv transfer metrics";

  private @Nullable Instant lastTs;

  /** True when the record is a KV transfer line (then it was handled). */
  boolean handle(RecordLine line, ParseOutput sink) {
    String message = line.message();
    int start = OtherRecords.enginePrefixEnd(message);
    int body;
    if (message.startsWith(PREFIX, start)) {
      body = start + PREFIX.length();
    } else if (message.startsWith(TYPED_PREFIX, start)) {
      int at = message.indexOf(", " + PREFIX, start);
      if (at < 0) {
        return false;
      }
      body = at + 2 + PREFIX.length();
    } else {
      return false;
    }
    Fields fields = new Fields();
    String problem = fields.read(message, body);
    if (problem != null) {
      line.reject(sink, "kv transfer line: " + problem);
      return true;
    }
    if (fields.transfers < 0) {
      // another connector's keys (LMCache, P2P NCCL, ...): known, not read
      line.ignore(sink, OTHER_CONNECTOR);
      return true;
    }
    Double interval =
        lastTs == null ? null : Math.max(0, Duration.between(lastTs, line.ts()).toMillis() / 1e3);
    lastTs = line.ts();
    boolean none = fields.transfers == 0;
    sink.event(
        new KvTransfer(
            Engine.VLLM,
            line.instance(),
            line.ts(),
            line.position(),
            null,
            null,
            "decode",
            null,
            interval,
            fields.transfers,
            none ? null : fields.meanMs,
            none ? null : fields.p90Ms,
            none ? null : fields.mb,
            none ? null : fields.throughput,
            fields.failed,
            fields.expired,
            KvTransfer.NIXL_INTERVAL));
    return true;
  }

  /** The {@code key=value} pairs the parser reads (names as vLLM prints them). */
  private static final class Fields {
    long transfers = -1;
    @Nullable Double meanMs;
    @Nullable Double p90Ms;
    @Nullable Double mb;
    @Nullable Double throughput;
    @Nullable Long failed;
    @Nullable Long expired;

    @Nullable String read(String message, int from) {
      int p = from;
      int length = message.length();
      while (p < length) {
        int next = message.indexOf(", ", p);
        int end = next < 0 ? length : next;
        int equals = message.lastIndexOf('=', end - 1);
        if (equals > p) {
          String problem = pair(message.substring(p, equals), message, equals + 1, end);
          if (problem != null) {
            return problem;
          }
        }
        p = end + 2;
      }
      return null;
    }

    private @Nullable String pair(String key, String text, int start, int end) {
      switch (key) {
        case "Num successful transfers" -> transfers = count(text, start, end);
        case "Avg xfer time (ms)" -> meanMs = decimal(text, start, end);
        case "P90 xfer time (ms)" -> p90Ms = decimal(text, start, end);
        case "Avg MB per transfer" -> mb = decimal(text, start, end);
        case "Throughput (MB/s)" -> throughput = decimal(text, start, end);
        case "Num failed transfers" -> failed = count(text, start, end);
        case "Num KV expired reqs", "Num expired reqs" -> expired = count(text, start, end);
        default -> {
          return null; // post time, descriptors, connector-specific keys
        }
      }
      boolean bad =
          transfers == -2
              || Double.isNaN(orZero(meanMs))
              || Double.isNaN(orZero(p90Ms))
              || Double.isNaN(orZero(mb))
              || Double.isNaN(orZero(throughput))
              || (failed != null && failed < 0)
              || (expired != null && expired < 0);
      return bad ? "bad '" + key + "' value" : null;
    }

    private static double orZero(@Nullable Double value) {
      return value == null ? 0 : value;
    }

    private static long count(String text, int start, int end) {
      long value = Numbers.longCount(text, start, end);
      return value < 0 ? -2 : value;
    }

    private static double decimal(String text, int start, int end) {
      return Numbers.decimal(text, start, end);
    }
  }
}
