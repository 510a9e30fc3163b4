package dev.tokentrace.clients;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** One GenAI-Perf request object as a row (see {@link GenaiPerfClientTimingReader}). */
final class GenaiPerfRows {
  private GenaiPerfRows() {}

  static ClientTiming timing(
      SourcePosition position, JsonNode request, @Nullable Integer concurrency) throws BadField {
    long start =
        ClientFields.required("timestamp", ClientJson.integer(request, "timestamp", "timestamp"));
    List<Long> stamps = stamps(request.path("response_timestamps"));
    JsonNode outputs = request.path("response_outputs");
    SseChunk summary = SseChunk.NOTHING;
    List<Long> content = new ArrayList<>();
    for (int j = 0; j < stamps.size(); j++) {
      SseChunk chunk = j < outputs.size() ? SseChunk.of(outputs.get(j)) : SseChunk.NOTHING;
      summary = summary.and(chunk);
      if (chunk.content()) {
        content.add(stamps.get(j));
      }
    }
    // no text seen (Triton tensors, outputs not exported): every response counts
    List<Long> tokens = content.isEmpty() ? stamps : content;
    ClientRow row = new ClientRow(position).concurrency(concurrency);
    if (summary.id() != null) {
      row.id(summary.id(), ResponseIds.key(summary.id()), IdKind.RESPONSE);
    } else {
      row.id(GenaiPerfClientTimingReader.FORMAT + "#" + position.line(), IdKind.LOCAL);
    }
    if (ClientJson.isEpochNanos(start)) {
      row.start(ClientJson.epochNanos("timestamp", start));
    } else {
      row.startMono(start / 1e9);
    }
    row.promptTokens("usage.prompt_tokens", summary.promptTokens());
    if (tokens.isEmpty()) {
      return row.status(ClientFields.errorStatus("no response")).build();
    }
    long first = tokens.get(0);
    long last = tokens.get(tokens.size() - 1);
    row.ttft("response_timestamps[0] - timestamp", (first - start) / 1e6)
        .e2e("response_timestamps[-1] - timestamp", (last - start) / 1e6)
        .outputTokens(
            summary.completionTokens() != null ? "usage.completion_tokens" : "response_timestamps",
            summary.completionTokens() != null ? summary.completionTokens() : (long) tokens.size());
    row.detail(new ClientDetail(null, null, null, null, null, tokens.size(), maxGap(tokens)));
    return row.build();
  }

  private static List<Long> stamps(JsonNode array) throws BadField {
    List<Long> stamps = new ArrayList<>();
    for (JsonNode stamp : array) {
      if (!stamp.isIntegralNumber() || !stamp.canConvertToLong()) {
        throw new BadField(
            "bad 'response_timestamps' value " + ClientFields.quote(stamp.toString()));
      }
      stamps.add(stamp.longValue());
    }
    return stamps;
  }

  private static @Nullable Double maxGap(List<Long> stamps) throws BadField {
    if (stamps.size() < 2) {
      return null;
    }
    long max = 0;
    for (int i = 1; i < stamps.size(); i++) {
      max = Math.max(max, stamps.get(i) - stamps.get(i - 1));
    }
    return ClientRow.duration("response_timestamps", max / 1e6);
  }
}
