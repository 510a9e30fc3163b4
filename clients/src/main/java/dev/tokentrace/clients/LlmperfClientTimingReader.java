package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.SourcePosition;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Ray LLMPerf {@code *_individual_responses.json} (format id {@value #FORMAT}): a JSON array of
 * per-request objects with {@code ttft_s}, {@code end_to_end_latency_s}, token counts and {@code
 * error_code}/{@code error_msg} (docs/formats/clients.md#llmperf, llmperf @ f1d6bed4).
 *
 * <p>LLMPerf records no timestamps (only {@code time.monotonic()} deltas) and no request ID, so its
 * rows get local IDs ({@code llmperf#<n>}) and serve as a statistical comparison or as input to
 * {@code --match heuristic} on token counts. Output tokens are LLMPerf's own tokenizer count.
 * Streams the array one element at a time.
 */
final class LlmperfClientTimingReader implements ClientTimingReader {
  static final String FORMAT = "llmperf";

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    if (head.isJsonArray() && head.hasAny("[].ttft_s", "[].end_to_end_latency_s")) {
      return Recognition.yes();
    }
    return Recognition.no("not a JSON array of objects with ttft_s / end_to_end_latency_s");
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    String path = file.toString();
    long ordinal = 0;
    try (InputStream in = Files.newInputStream(file);
        JsonParser parser = ClientJson.JSON.createParser(in)) {
      try {
        if (parser.nextToken() != JsonToken.START_ARRAY) {
          sink.rejected(
              new ClientRejection(
                  ClientJson.lineOf(path, parser), "not a json array of responses", ""));
          return;
        }
        for (JsonToken item = parser.nextToken();
            item != JsonToken.END_ARRAY;
            item = parser.nextToken()) {
          ordinal++;
          SourcePosition position = ClientJson.position(path, ordinal, parser);
          SourcePosition line = ClientJson.lineOf(path, parser);
          JsonNode response = ClientJson.MAPPER.readTree(parser);
          if (ordinal == 1) {
            sink.warning(
                position,
                "llmperf: the file has no request IDs or timestamps; rows join only with --match"
                    + " heuristic (token counts) or serve as a statistical comparison");
          }
          row(position, line, response, sink);
        }
      } catch (JsonProcessingException e) {
        SourcePosition position = ClientJson.lineOf(path, e, parser);
        sink.rejected(new ClientRejection(position, ClientJson.malformed(e), ""));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /** {@code line}: where the response starts in the text, for a rejection. */
  private static void row(
      SourcePosition position, SourcePosition line, JsonNode response, ClientReaderOutput sink) {
    try {
      if (!response.isObject()) {
        throw new BadField("not a json object");
      }
      ClientRow row = new ClientRow(position).id(FORMAT + "#" + position.line(), IdKind.LOCAL);
      row.promptTokens(
          "number_input_tokens",
          ClientJson.integer(response, "number_input_tokens", "number_input_tokens"));
      String code = ClientJson.text(response, "error_code");
      if (code != null) {
        String message = ClientJson.text(response, "error_msg");
        row.status(ClientFields.errorStatus(code + (message == null ? "" : " " + message)));
        sink.row(row.build());
        return;
      }
      Double ttft = ClientJson.number(response, "ttft_s", "ttft_s");
      Double e2e = ClientJson.number(response, "end_to_end_latency_s", "end_to_end_latency_s");
      row.ttft("ttft_s", ttft == null ? null : ttft * 1000)
          .e2e("end_to_end_latency_s", e2e == null ? null : e2e * 1000)
          .outputTokens(
              "number_output_tokens",
              ClientJson.integer(response, "number_output_tokens", "number_output_tokens"));
      sink.row(row.build());
    } catch (BadField e) {
      sink.rejected(new ClientRejection(line, e.getMessage(), ""));
    }
  }
}
