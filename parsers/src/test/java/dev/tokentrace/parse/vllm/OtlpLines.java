package dev.tokentrace.parse.vllm;

/**
 * OpenTelemetry Collector file-export lines composed by us from the OTLP/JSON rules of
 * docs/formats/vllm.md#otlp-json-export and the vLLM span attributes of
 * docs/formats/vllm.md#otlp-spans (values are our own).
 */
final class OtlpLines {
  static final String START = "\"startTimeUnixNano\":\"1779185591123456768\"";
  static final String END = "\"endTimeUnixNano\":\"1779185593456789000\"";

  static final String V1_ATTRIBUTES =
      "{\"key\":\"gen_ai.latency.time_to_first_token\",\"value\":{\"doubleValue\":0.0841}},"
          + "{\"key\":\"gen_ai.latency.e2e\",\"value\":{\"doubleValue\":2.3332}},"
          + "{\"key\":\"gen_ai.latency.time_in_queue\",\"value\":{\"doubleValue\":0.0012}},"
          + "{\"key\":\"gen_ai.usage.prompt_tokens\",\"value\":{\"intValue\":\"38\"}},"
          + "{\"key\":\"gen_ai.usage.completion_tokens\",\"value\":{\"intValue\":\"23\"}},"
          + "{\"key\":\"gen_ai.latency.time_in_model_prefill\",\"value\":{\"doubleValue\":0.0703}},"
          + "{\"key\":\"gen_ai.latency.time_in_model_decode\",\"value\":{\"doubleValue\":2.2391}},"
          + "{\"key\":\"gen_ai.latency.time_in_model_inference\",\"value\":{\"doubleValue\":2.31}},"
          + "{\"key\":\"gen_ai.request.id\",\"value\":{\"stringValue\":\"chatcmpl-client-42\"}},"
          + "{\"key\":\"gen_ai.request.max_tokens\",\"value\":{\"intValue\":\"100\"}}";

  static final String V1_LINE = line(span("llm_request", V1_ATTRIBUTES));

  static final String V1_BODY =
      "{'type':'request_timing','ts':'2026-05-19T10:13:13.456Z','request_id':'chatcmpl-client-42',"
          + "'request_key':'client-42','arrival_ts':'2026-05-19T10:13:11.123Z','queue_ms':1.2,"
          + "'prefill_ms':70.3,'decode_ms':2239.1,'server_ttft_ms':84.1,'e2e_ms':2333.2,"
          + "'prompt_tokens':38,'output_tokens':23,'source_kind':'otlp'}";

  /**
   * V0 (2024-06 → 2025-10): no prefill/decode; numbers as JSON numbers or decimal strings (a NaN
   * latency rejects the span: {@code OtlpTraceLineTest}).
   */
  static final String V0_LINE =
      line(
          span(
              "llm_request",
              "{\"key\":\"gen_ai.response.model\",\"value\":{\"stringValue\":\"m\"}},"
                  + "{\"key\":\"gen_ai.request.id\",\"value\":{\"stringValue\":\"cmpl-bench-7-0\"}},"
                  + "{\"key\":\"gen_ai.usage.prompt_tokens\",\"value\":{\"intValue\":512}},"
                  + "{\"key\":\"gen_ai.usage.completion_tokens\",\"value\":{\"intValue\":\"64\"}},"
                  + "{\"key\":\"gen_ai.latency.time_in_queue\",\"value\":{\"doubleValue\":0.5}},"
                  + "{\"key\":\"gen_ai.latency.time_to_first_token\","
                  + "\"value\":{\"doubleValue\":\"0.75\"}},"
                  + "{\"key\":\"gen_ai.latency.e2e\",\"value\":{\"doubleValue\":2.333}},"
                  + "{\"key\":\"gen_ai.latency.time_in_scheduler\",\"value\":{\"doubleValue\":0.01}}"));

  static final String V0_BODY =
      "{'type':'request_timing','ts':'2026-05-19T10:13:13.456Z','request_id':'cmpl-bench-7-0',"
          + "'request_key':'bench-7','arrival_ts':'2026-05-19T10:13:11.123Z','queue_ms':500.0,"
          + "'server_ttft_ms':750.0,'e2e_ms':2333.0,'prompt_tokens':512,'output_tokens':64,'source_kind':'otlp'}";

  static final String STARTUP_SPANS_ONLY =
      line(
          span(
              "Load model",
              "{\"key\":\"vllm.process_kind\",\"value\":{\"stringValue\":\"worker\"}}"));

  static final String WITHOUT_ID =
      line(span("llm_request", "{\"key\":\"gen_ai.latency.e2e\",\"value\":{\"doubleValue\":1.5}}"));

  static final String BAD_START =
      line(span("llm_request", V1_ATTRIBUTES).replace("1779185591123456768", "yesterday"));

  static final String BAD_E2E =
      line(span("llm_request", V1_ATTRIBUTES.replace("2.3332", "\"slow\"")));

  static final String BAD_TOKENS =
      line(span("llm_request", V1_ATTRIBUTES.replace("\"38\"", "\"-38\"")));

  static final String BAD_ID =
      line(span("llm_request", V1_ATTRIBUTES.replace("chatcmpl-client-42", "chat\uFFFD")));

  private OtlpLines() {}

  static String span(String name, String attributes) {
    return "{\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"spanId\":\"eee19b7ec3c1b174\","
        + "\"name\":\""
        + name
        + "\",\"kind\":2,"
        + START
        + ","
        + END
        + ",\"attributes\":["
        + attributes
        + "],\"status\":{}}";
  }

  static String line(String... spans) {
    return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
        + "\"value\":{\"stringValue\":\"vllm-server\"}}]},\"scopeSpans\":[{\"scope\":"
        + "{\"name\":\"vllm.llm_engine\"},\"spans\":["
        + String.join(",", spans)
        + "]}]}]}";
  }
}
