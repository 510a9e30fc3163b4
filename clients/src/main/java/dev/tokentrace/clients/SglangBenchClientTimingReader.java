package dev.tokentrace.clients;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.SourcePosition;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * SGLang {@code python -m sglang.bench_serving --output-file x.jsonl --output-details} (format id
 * {@value #FORMAT}): one JSON line per run, appended, with parallel arrays {@code input_lens,
 * output_lens, ttfts, itls, generated_texts, errors} and {@code Infinity} in the summary
 * (docs/formats/clients.md#sglang-bench-serving).
 *
 * <p>The file has no request IDs and no start times, and SGLang ignores {@code X-Request-Id}, so
 * its rows get local IDs ({@code sglang-bench#<n>}) and join only with {@code --match heuristic} on
 * token counts and durations, or serve as a statistical comparison. E2E is TTFT plus the sum of the
 * ITLs (the time of the last token; the file has no per-request latency).
 */
final class SglangBenchClientTimingReader implements ClientTimingReader {
  static final String FORMAT = "sglang-bench";

  private static final Map<String, ParallelArrays.Kind> ARRAYS =
      Map.of(
          "ttfts", ParallelArrays.Kind.NUMBER,
          "input_lens", ParallelArrays.Kind.NUMBER,
          "output_lens", ParallelArrays.Kind.NUMBER,
          "itls", ParallelArrays.Kind.GAPS,
          "errors", ParallelArrays.Kind.TEXT);

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    if (head.isJsonObject()
        && head.has("dataset_name")
        && head.hasAny("backend", "ttfts")
        && !head.hasAny("date", "start_times")) {
      return Recognition.yes();
    }
    return Recognition.no(
        "no sglang bench_serving keys (backend, dataset_name without date) in a JSON object");
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    ResultObjects.read(file, ARRAYS, new Mapper(), sink);
  }

  /** One file's mapping. */
  private static final class Mapper implements ResultObjects.Mapper {
    private boolean warned;
    private @Nullable Integer concurrency;

    @Override
    public void begin(ParallelArrays arrays, SourcePosition position, ClientReaderOutput sink)
        throws BadField {
      if (!arrays.has("ttfts")) {
        throw new BadField(
            "no per-request arrays (ttfts): run sglang.bench_serving with --output-details");
      }
      if (!warned) {
        warned = true;
        sink.warning(
            position,
            "sglang-bench: the file has no request IDs or start times; rows join only with"
                + " --match heuristic (token counts) or serve as a statistical comparison");
      }
      JsonNode level = arrays.scalar("max_concurrency");
      concurrency = level != null && level.canConvertToInt() ? level.intValue() : null;
    }

    @Override
    public ClientTiming row(
        ParallelArrays arrays, ParallelArrays.Cursor cursor, long index, SourcePosition position)
        throws BadField {
      ClientRow row = new ClientRow(position).id(FORMAT + "#" + position.line(), IdKind.LOCAL);
      row.promptTokens("input_lens", VllmBenchClientTimingReader.count(cursor, "input_lens"));
      row.concurrency(concurrency);
      String error = cursor.text("errors");
      if (!error.isBlank()) {
        return row.status(ClientFields.errorStatus(error)).build();
      }
      Double ttft = VllmBenchClientTimingReader.seconds(cursor, "ttfts");
      ParallelArrays.Gaps gaps = cursor.gaps("itls");
      Double e2e = ttft == null || gaps == null ? null : ttft + gaps.sum() * 1000;
      row.ttft("ttfts", ttft)
          .e2e("ttfts + itls", e2e)
          .outputTokens("output_lens", VllmBenchClientTimingReader.count(cursor, "output_lens"));
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
  }
}
