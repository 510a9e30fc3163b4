package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.SourcePosition;
import java.io.IOException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * NVIDIA GenAI-Perf / perf_analyzer {@code profile_export.json} (format id {@value #FORMAT}):
 * {@code experiments[].requests[]} with {@code timestamp} (request start) and {@code
 * response_timestamps[]} (every response), epoch ns from {@code std::chrono::system_clock}
 * (docs/formats/clients.md#genai-perf; perf_analyzer @ 263c5f6e {@code profile_data_exporter.cc}).
 *
 * <ul>
 *   <li>The file records no request ID. In OpenAI mode {@code response_outputs[]} hold the raw SSE
 *       text, whose chunks carry the server's response {@code id} ({@code cmpl-...}, keyed by
 *       {@link ResponseIds}); without it rows get local IDs ({@code genai-perf#<n>}).
 *   <li>TTFT and E2E run from {@code timestamp} to the first and last response that carried text; a
 *       final {@code [DONE]} or usage-only chunk is not a token. Output tokens are the last {@code
 *       usage.completion_tokens}, else the number of such responses.
 *   <li>A request with no response ({@code response_timestamps: []}) is kept as failed.
 *   <li>Timestamps that are not plausible epoch ns (the perf_analyzer docs example uses 1, 2, 3)
 *       keep {@code start_ts} empty and go to {@code start_mono_s}; durations stay valid.
 *   <li>The concurrency of {@code experiment: {mode: concurrency, value: N}} is the row's level.
 * </ul>
 *
 * Streams: one request object is in memory at a time.
 */
final class GenaiPerfClientTimingReader implements ClientTimingReader {
  static final String FORMAT = "genai-perf";

  @Override
  public String noRowsReason(Path file) {
    return "no request in experiments[].requests; GenAI-Perf keeps the per-request timestamps in"
        + " profile_export.json of its artifacts directory: pass that file, not"
        + " profile_export_genai_perf.json or .csv (the aggregate statistics)";
  }

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    if (head.isJsonObject() && head.has("experiments")) {
      return Recognition.yes();
    }
    return Recognition.no("no top-level 'experiments' in a JSON object");
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    File state = new File(file.toString(), sink);
    ClientJson.readArray(
        file,
        ClientJson.JSON,
        sink,
        "experiments",
        "not a profile export (no top-level object)",
        state::experiment);
  }

  /** Reading one file. */
  private static final class File {
    private final String path;
    private final ClientReaderOutput sink;
    private long ordinal;
    private boolean warnedId;
    private boolean warnedClock;
    private @Nullable Integer concurrency;

    File(String path, ClientReaderOutput sink) {
      this.path = path;
      this.sink = sink;
    }

    void experiment(JsonParser parser) throws IOException {
      concurrency = null;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if ("experiment".equals(name) && value == JsonToken.START_OBJECT) {
          JsonNode experiment = ClientJson.MAPPER.readTree(parser);
          JsonNode level = experiment.path("value");
          concurrency =
              "concurrency".equals(ClientJson.text(experiment, "mode")) && level.canConvertToInt()
                  ? level.intValue()
                  : null;
        } else if ("requests".equals(name) && value == JsonToken.START_ARRAY) {
          for (JsonToken item = parser.nextToken();
              item != JsonToken.END_ARRAY;
              item = parser.nextToken()) {
            ordinal++;
            SourcePosition position = ClientJson.position(path, ordinal, parser);
            SourcePosition line = ClientJson.lineOf(path, parser);
            row(position, line, ClientJson.MAPPER.readTree(parser));
          }
        } else {
          parser.skipChildren();
        }
      }
    }

    /** {@code line}: where the request starts in the text, for a rejection. */
    private void row(SourcePosition position, SourcePosition line, JsonNode request) {
      try {
        if (!request.isObject()) {
          throw new BadField("not a json object");
        }
        ClientTiming timing = GenaiPerfRows.timing(position, request, concurrency);
        warnOnce(position, timing);
        sink.row(timing);
      } catch (BadField e) {
        sink.rejected(new ClientRejection(line, e.getMessage(), ""));
      }
    }

    private void warnOnce(SourcePosition position, ClientTiming timing) {
      if (timing.idKind() == IdKind.LOCAL && timing.ok() && !warnedId) {
        warnedId = true;
        sink.warning(
            position,
            "genai-perf: no response id in response_outputs (not OpenAI SSE, or outputs not"
                + " exported); rows join only with --match heuristic");
      }
      if (timing.startTs() == null && timing.startMonoS() != null && !warnedClock) {
        warnedClock = true;
        sink.warning(
            position,
            "genai-perf: timestamps are not epoch ns; start_ts left empty, durations kept");
      }
    }
  }
}
