package dev.tokentrace.clients;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.SourcePosition;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code vllm bench serve --save-result --save-detailed} JSON (format id {@value #FORMAT}): one
 * object of parallel per-request arrays, in request order
 * (docs/formats/clients.md#vllm-bench-serve; keys as written by {@code vllm/benchmarks/serve.py} @
 * 009e6d4a). Also TensorRT-LLM's vLLM-derived {@code benchmark_serving}, which writes {@code e2els}
 * for {@code latencies} (docs/formats/clients.md#tensorrt-llm-bench-serving).
 *
 * <ul>
 *   <li>IDs are not in the file: the benchmark sent {@code x-request-id: <prefix><i>}, so with
 *       {@link ClientReadSettings#requestIdPrefix} the ID is rebuilt as prefix + index; without it
 *       rows get local IDs ({@code vllm-bench#<n>}) and a warning.
 *   <li>{@code start_times} are {@code time.perf_counter()} seconds, a monotonic clock: kept in
 *       {@code start_mono_s} with {@code start_ts} empty, placed on the server clock later by the
 *       per-run clock offset. A value that is plausible epoch seconds is taken as wall time.
 *   <li>{@code queue_times} is the client's semaphore wait before sending; {@code start_times},
 *       {@code ttfts} and {@code latencies} start after it (serve.py: "Preserve start_time as the
 *       time the request was sent"), so the row starts {@code queue} earlier and its TTFT and E2E
 *       include it, as {@link ClientTiming} defines them.
 *   <li>A request with a non-empty {@code errors[i]} is kept as failed; without {@code latencies}
 *       (older versions, issue #34929) E2E is TTFT plus the sum of its ITLs.
 * </ul>
 *
 * Memory stays bounded for any file size: see {@link ParallelArrays}.
 */
final class VllmBenchClientTimingReader implements ClientTimingReader {
  static final String FORMAT = "vllm-bench";

  private static final Map<String, ParallelArrays.Kind> ARRAYS =
      Map.of(
          "ttfts", ParallelArrays.Kind.NUMBER,
          "latencies", ParallelArrays.Kind.NUMBER,
          "e2els", ParallelArrays.Kind.NUMBER,
          "start_times", ParallelArrays.Kind.NUMBER,
          "queue_times", ParallelArrays.Kind.NUMBER,
          "input_lens", ParallelArrays.Kind.NUMBER,
          "output_lens", ParallelArrays.Kind.NUMBER,
          "itls", ParallelArrays.Kind.GAPS,
          "errors", ParallelArrays.Kind.TEXT);

  private final @Nullable String prefix;

  VllmBenchClientTimingReader(ClientReadSettings settings) {
    this.prefix = settings.requestIdPrefix();
  }

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    boolean arrays = head.hasAny("ttfts", "start_times", "queue_times", "latencies", "e2els");
    boolean header = head.hasAny("date", "endpoint_type", "model_id");
    if (head.isJsonObject() && (head.hasAny("start_times", "queue_times") || arrays && header)) {
      return Recognition.yes();
    }
    if (head.isJsonObject() && header && !head.has("dataset_name")) {
      return Recognition.yes(); // the summary keys come first; the arrays are past the head
    }
    return Recognition.no(
        "no vllm bench result keys (date, endpoint_type, start_times, ttfts) in a JSON object");
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    ResultObjects.read(file, ARRAYS, new Mapper(), sink);
  }

  /** One file's mapping; warns once. */
  private final class Mapper implements ResultObjects.Mapper {
    private boolean warned;
    private int objects;
    private @Nullable Integer concurrency;

    @Override
    public void begin(ParallelArrays arrays, SourcePosition position, ClientReaderOutput sink)
        throws BadField {
      if (!arrays.has("ttfts") && !arrays.has("errors")) {
        throw new BadField(
            "no per-request arrays (ttfts, errors): run vllm bench serve with --save-detailed");
      }
      objects++;
      if (prefix == null && !warned) {
        warned = true;
        sink.warning(
            position,
            "vllm-bench: no request-id prefix given; rows get local IDs and join only with"
                + " --match heuristic (pass the --request-id-prefix the benchmark used)");
      } else if (prefix != null && objects == 2) {
        sink.warning(
            position,
            "vllm-bench: the file holds several results; IDs rebuilt from one prefix repeat");
      }
      JsonNode level = arrays.scalar("max_concurrency");
      concurrency = level != null && level.canConvertToInt() ? level.intValue() : null;
    }

    @Override
    public ClientTiming row(
        ParallelArrays arrays, ParallelArrays.Cursor cursor, long index, SourcePosition position)
        throws BadField {
      ClientRow row = new ClientRow(position);
      if (prefix != null) {
        row.id(prefix + index, IdKind.REBUILT);
      } else {
        row.id(FORMAT + "#" + position.line(), IdKind.LOCAL);
      }
      String error = cursor.text("errors");
      Double queue = seconds(cursor, "queue_times");
      double wait = queue == null ? 0 : queue;
      row.clientQueue("queue_times", queue);
      start(row, cursor.number("start_times"), wait);
      row.promptTokens("input_lens", count(cursor, "input_lens"));
      row.concurrency(concurrency);
      if (!error.isBlank()) {
        return row.status(ClientFields.errorStatus(error)).build();
      }
      ParallelArrays.Gaps gaps = cursor.gaps("itls");
      Double ttft = seconds(cursor, "ttfts");
      Double e2e = e2e(cursor, ttft, gaps);
      row.ttft("ttfts", ttft == null ? null : ttft + wait)
          .e2e(arrays.has("latencies") ? "latencies" : "e2els", e2e == null ? null : e2e + wait)
          .outputTokens("output_lens", count(cursor, "output_lens"));
      if (gaps != null) {
        row.detail(
            new ClientDetail(
                null,
                null,
                null,
                null,
                null,
                gaps.count() + 1,
                gaps.count() == 0 ? null : ClientRow.duration("itls", gaps.max() * 1000)));
      }
      return row.build();
    }

    private void start(ClientRow row, @Nullable Double start, double waitMs) throws BadField {
      if (start == null) {
        return;
      }
      double issued = start - waitMs / 1000;
      if (ClientJson.isEpochSeconds(issued)) {
        row.start(ClientJson.epochSeconds("start_times", issued));
      } else {
        row.startMono(issued);
      }
    }

    private @Nullable Double e2e(
        ParallelArrays.Cursor cursor, @Nullable Double ttft, ParallelArrays.@Nullable Gaps gaps)
        throws BadField {
      Double latency = seconds(cursor, "latencies");
      if (latency == null) {
        latency = seconds(cursor, "e2els");
      }
      if (latency == null && ttft != null && gaps != null) {
        latency = ttft + gaps.sum() * 1000;
      }
      return latency;
    }
  }

  /** Seconds in the file to ms; infinite is a bad value. */
  static @Nullable Double seconds(ParallelArrays.Cursor cursor, String name) throws BadField {
    Double value = cursor.number(name);
    return ClientRow.duration(name, value == null ? null : value * 1000);
  }

  static @Nullable Long count(ParallelArrays.Cursor cursor, String name) throws BadField {
    Double value = cursor.number(name);
    if (value == null) {
      return null;
    }
    if (!Double.isFinite(value) || value != Math.rint(value)) {
      throw new BadField("bad '" + name + "' value " + ClientFields.quote(String.valueOf(value)));
    }
    return (long) (double) value;
  }
}
