package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.SourcePosition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * GuideLLM {@code benchmarks.json} or {@code benchmarks.yaml} (format id {@value #FORMAT}): {@code
 * benchmarks[].requests.{successful, incomplete, errored}[]} (docs/formats/clients.md#guidellm).
 *
 * <p>Two layouts: the current one ({@code GenerativeRequestStats} with {@code response_id} and
 * {@code info.timings.*}, guidellm @ ee7a7745) and the older one of the fixtures ({@code
 * scheduler_info}, {@code start_time}, {@code first_token_time}, {@code last_token_time}). Times
 * are epoch seconds ({@code time.time()}). The ID is {@code response_id}, the server's own response
 * ID (vLLM {@code chatcmpl-...}), keyed by {@link ResponseIds}; files without it (older GuideLLM)
 * keep the client's {@code request_id}, which never reached the server: those rows join only with
 * {@code --match heuristic}, and the reader says so once. Incomplete and errored requests are kept
 * with their status.
 *
 * <p>Streams: one request object is in memory at a time, whatever the number of benchmarks.
 */
final class GuidellmClientTimingReader implements ClientTimingReader {
  static final String FORMAT = "guidellm";

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    if (head.isJsonObject() && head.has("benchmarks")) {
      return Recognition.yes();
    }
    if (!head.isJsonObject() && !head.isJsonArray() && isYamlBenchmarks(head.text())) {
      return Recognition.yes();
    }
    return Recognition.no("no top-level 'benchmarks' (JSON or YAML)");
  }

  private static boolean isYamlBenchmarks(String text) {
    for (String line : text.lines().limit(50).toList()) {
      if (line.startsWith("benchmarks:")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    File state = new File(file.toString(), sink);
    ClientJson.readArray(
        file,
        factory(file),
        sink,
        "benchmarks",
        "not a guidellm benchmarks file (no top-level object)",
        state::benchmark);
  }

  /**
   * A report whose benchmarks have no request entries: GuideLLM's current report (version 2) saved
   * with empty {@code requests.successful/errored/incomplete}, or the summary of a run whose
   * samples were not kept (docs/formats/client-files.md#no-rows).
   */
  @Override
  public String noRowsReason(Path file) {
    int benchmarks = 0;
    try (InputStream in = Files.newInputStream(file);
        JsonParser parser = factory(file).createParser(in)) {
      com.fasterxml.jackson.databind.JsonNode root = ClientJson.MAPPER.readTree(parser);
      com.fasterxml.jackson.databind.JsonNode list = root == null ? null : root.get("benchmarks");
      benchmarks = list != null && list.isArray() ? list.size() : 0;
    } catch (IOException e) {
      return "the report cannot be read again to say why: " + e.getMessage();
    }
    if (benchmarks == 0) {
      return "the report lists no benchmarks; the run may have failed before its first benchmark";
    }
    return "the report has "
        + benchmarks
        + " benchmark(s) but no per-request records (requests.successful, errored and incomplete"
        + " are empty or missing): it was saved as an aggregate-only report or with its requests"
        + " stripped; rerun guidellm benchmark with its request samples kept (no --output-sampling"
        + " limit, e.g. --output-path benchmarks.json) and pass that file";
  }

  /** YAML unless the first non-blank character opens a JSON object. */
  private static JsonFactory factory(Path file) {
    String head = FileHead.of(file).text().stripLeading();
    return head.startsWith("{") ? ClientJson.JSON : ClientJson.yaml();
  }

  /** Reading one file: where we are, and what was said once. */
  private static final class File {
    private final String path;
    private final ClientReaderOutput sink;
    private long ordinal;
    private boolean warned;
    private @Nullable Integer concurrency;

    File(String path, ClientReaderOutput sink) {
      this.path = path;
      this.sink = sink;
    }

    void benchmark(JsonParser parser) throws IOException {
      concurrency = null;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if (("config".equals(name) || "args".equals(name)) && value == JsonToken.START_OBJECT) {
          concurrency = level(ClientJson.MAPPER.readTree(parser));
        } else if ("requests".equals(name) && value == JsonToken.START_OBJECT) {
          statuses(parser);
        } else {
          parser.skipChildren();
        }
      }
    }

    /** {@code strategy.type_}: synchronous is 1, concurrent has {@code streams}; else unknown. */
    private static @Nullable Integer level(JsonNode config) {
      JsonNode strategy = config.path("strategy");
      String type = ClientJson.text(strategy, "type_");
      if ("synchronous".equals(type)) {
        return 1;
      }
      JsonNode streams = strategy.path("streams");
      return "concurrent".equals(type) && streams.canConvertToInt() && streams.intValue() > 0
          ? streams.intValue()
          : null;
    }

    private void statuses(JsonParser parser) throws IOException {
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String status = parser.currentName();
        JsonToken value = parser.nextToken();
        boolean known =
            "successful".equals(status) || "incomplete".equals(status) || "errored".equals(status);
        if (!known || value != JsonToken.START_ARRAY) {
          parser.skipChildren();
          continue;
        }
        for (JsonToken item = parser.nextToken();
            item != JsonToken.END_ARRAY;
            item = parser.nextToken()) {
          ordinal++;
          SourcePosition position = ClientJson.position(path, ordinal, parser);
          SourcePosition line = ClientJson.lineOf(path, parser);
          JsonNode request = ClientJson.MAPPER.readTree(parser);
          row(position, line, request, status);
        }
      }
    }

    /** {@code line}: where the request starts in the text, for a rejection. */
    private void row(
        SourcePosition position, SourcePosition line, JsonNode request, String status) {
      try {
        if (!request.isObject()) {
          throw new BadField("not a json object");
        }
        ClientTiming timing = GuidellmRows.timing(position, request, status, concurrency);
        if (timing.idKind() == IdKind.LOCAL && timing.ok() && !warned) {
          warned = true;
          sink.warning(
              position,
              "guidellm: requests have no response_id (GuideLLM before response IDs, issue #452);"
                  + " their request_id never reached the server: join with --match heuristic");
        }
        sink.row(timing);
      } catch (BadField e) {
        String id = ClientJson.text(request, "request_id");
        sink.rejected(new ClientRejection(line, e.getMessage(), id == null ? "" : id));
      }
    }
  }
}
