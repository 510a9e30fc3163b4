package dev.tokentrace.clients;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One GuideLLM request object, of either layout, as a row (see {@link GuidellmClientTimingReader}).
 */
final class GuidellmRows {
  private GuidellmRows() {}

  static ClientTiming timing(
      SourcePosition position, JsonNode request, String status, @Nullable Integer concurrency)
      throws BadField {
    ClientRow row = new ClientRow(position).concurrency(concurrency);
    identify(row, request);
    row.status(status(request, status));
    if (request.has("info")) {
      current(row, request);
    } else {
      older(row, request);
    }
    return row.build();
  }

  private static void identify(ClientRow row, JsonNode request) throws BadField {
    String response = ClientJson.text(request, "response_id");
    if (response != null && !response.isBlank()) {
      row.id(response, ResponseIds.key(response), IdKind.RESPONSE);
      return;
    }
    String local = ClientJson.text(request, "request_id");
    if (local == null || local.isBlank()) {
      throw new BadField("missing value for 'request_id'");
    }
    row.id(local, IdKind.LOCAL);
  }

  private static String status(JsonNode request, String group) {
    if ("successful".equals(group)) {
      return ClientTiming.STATUS_OK;
    }
    if ("incomplete".equals(group)) {
      return "incomplete";
    }
    String error = ClientJson.text(request.path("info"), "error");
    if (error == null) {
      error = ClientJson.text(request, "error");
    }
    return ClientFields.errorStatus(error == null ? "errored" : error);
  }

  /** guidellm @ ee7a7745: {@code info.timings.*}, computed {@code time_to_first_token_ms}. */
  private static void current(ClientRow row, JsonNode request) throws BadField {
    JsonNode timings = request.path("info").path("timings");
    Double start = seconds(timings, "request_start", "info.timings.request_start");
    if (start == null) {
      start = seconds(timings, "resolve_start", "info.timings.resolve_start");
    }
    Double first = seconds(timings, "first_token_iteration", "info.timings.first_token_iteration");
    Double last = seconds(timings, "last_token_iteration", "info.timings.last_token_iteration");
    if (last == null) {
      last = seconds(timings, "request_end", "info.timings.request_end");
    }
    times(
        row,
        start,
        first,
        last,
        ClientJson.number(request, "time_to_first_token_ms", "time_to_first_token_ms"));
    Long output = ClientJson.integer(request, "output_tokens", "output_tokens");
    if (output == null) {
      output =
          ClientJson.integer(
              request.path("output_metrics"), "total_tokens", "output_metrics.total_tokens");
    }
    Long prompt = ClientJson.integer(request, "prompt_tokens", "prompt_tokens");
    if (prompt == null) {
      prompt =
          ClientJson.integer(
              request.path("input_metrics"), "total_tokens", "input_metrics.total_tokens");
    }
    row.outputTokens("output_tokens", output).promptTokens("prompt_tokens", prompt);
    Long iterations =
        ClientJson.integer(timings, "token_iterations", "info.timings.token_iterations");
    if (iterations != null && iterations > 0 && iterations <= Integer.MAX_VALUE) {
      row.detail(new ClientDetail(null, null, null, null, null, iterations.intValue(), null));
    }
  }

  /** The older layout: {@code start_time}, {@code first_token_time}, {@code last_token_time}. */
  private static void older(ClientRow row, JsonNode request) throws BadField {
    Double start = seconds(request, "start_time", "start_time");
    if (start == null) {
      start =
          seconds(request.path("scheduler_info"), "request_start", "scheduler_info.request_start");
    }
    Double first = seconds(request, "first_token_time", "first_token_time");
    Double last = seconds(request, "last_token_time", "last_token_time");
    if (last == null) {
      last = seconds(request, "end_time", "end_time");
    }
    times(
        row,
        start,
        first,
        last,
        ClientJson.number(request, "time_to_first_token_ms", "time_to_first_token_ms"));
    row.outputTokens("output_tokens", ClientJson.integer(request, "output_tokens", "output_tokens"))
        .promptTokens(
            "prompt_tokens", ClientJson.integer(request, "prompt_tokens", "prompt_tokens"));
  }

  private static void times(
      ClientRow row,
      @Nullable Double start,
      @Nullable Double first,
      @Nullable Double last,
      @Nullable Double ttftMs)
      throws BadField {
    if (start == null) {
      return;
    }
    Instant startTs = ClientJson.epochSeconds("request start", start);
    row.start(startTs);
    Double ttft = ttftMs != null ? ttftMs : first == null ? null : (first - start) * 1000;
    row.ttft("time_to_first_token_ms", ttft);
    row.e2e("last token - request start", last == null ? null : (last - start) * 1000);
  }

  private static @Nullable Double seconds(JsonNode parent, String field, String name)
      throws BadField {
    return ClientJson.number(parent, field, name);
  }
}
