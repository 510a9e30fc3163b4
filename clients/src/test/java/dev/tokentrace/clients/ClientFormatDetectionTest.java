package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code --format auto}: each format by content, and a clear error when nothing matches. */
final class ClientFormatDetectionTest {
  @TempDir Path dir;

  static Stream<Arguments> samples() {
    return Stream.of(
        Arguments.of(
            "csv", "request_id,start_ts,ttft_ms,e2e_ms,output_tokens\na,1772366400,1,2,3\n"),
        Arguments.of(
            "aiperf",
            AiperfClientTimingReaderTest.completed("a", 1_772_366_400_000_000_000L, 1, 2) + "\n"),
        Arguments.of(
            "vllm-bench",
            VllmBenchClientTimingReaderTest.HEAD + VllmBenchClientTimingReaderTest.ARRAYS),
        Arguments.of(
            "vllm-bench",
            "{\"ttfts\":[0.1],\"start_times\":[1.0],\"latencies\":[0.2],\"errors\":[\"\"]}"),
        Arguments.of(
            "guidellm",
            GuidellmClientTimingReaderTest.file(
                GuidellmClientTimingReaderTest.request(
                    "chatcmpl-x", GuidellmClientTimingReaderTest.FULL_TIMINGS, ""),
                "",
                "")),
        Arguments.of("guidellm", "---\nbenchmarks:\n- type_: generative_benchmark\n"),
        Arguments.of("genai-perf", GenaiPerfClientTimingReaderTest.export("")),
        Arguments.of("sglang-bench", SglangBenchClientTimingReaderTest.run(8, "[0.1, 0.2]") + "\n"),
        Arguments.of(
            "llmperf", "[{\"error_code\": null, \"ttft_s\": 0.1, \"end_to_end_latency_s\": 1}]"),
        Arguments.of(
            "jmeter", "timeStamp,elapsed,success,request_id\n1767225600000,812,true,jm-1\n"),
        Arguments.of(
            "jmeter", "1767225600000,812,chat,200,OK,t 1-1,text,true,,1,1,1,1,u,1,0,1,x\n"),
        Arguments.of(
            "jmeter",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n"
                + "</testResults>\n"),
        Arguments.of("wrk", WrkClientTimingReader.HEADER + "\n"),
        Arguments.of(
            "nginx",
            "1767225600.250 200 0.250 \"r\" \"n\" \"127.0.0.1:8000\" \"200\" \"0.001\""
                + " \"0.020\" \"0.248\" 512\n"),
        Arguments.of(
            "nginx",
            "127.0.0.1 - - [01/Jan/2026:00:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"c\"\n"),
        Arguments.of(
            "envoy",
            "[2026-01-01T00:00:00.125Z] \"POST /v1/completions HTTP/1.1\" 200 - 120 4096 830 12"
                + " \"-\" \"ua\" \"req-1\" \"llm.local\" \"10.0.0.7:8000\"\n"),
        Arguments.of(
            "envoy",
            "{\"start_time\":\"2026-01-01T00:00:00.000Z\",\"duration\":640,\"x_request_id\":\"r\"}\n"),
        // a head that ends inside the first huge array still shows the keys before it
        Arguments.of(
            "vllm-bench",
            VllmBenchClientTimingReaderTest.HEAD
                + "\"ttfts\":["
                + "0.125,".repeat(20_000)
                + "0.125]}"));
  }

  @ParameterizedTest
  @MethodSource("samples")
  void detectsEachFormatByContent(String format, String content) throws Exception {
    Path file = ClientFiles.write(dir, "sample", content);
    assertThat(ClientTimingReaders.forFile(file, "auto", ClientReadSettings.DEFAULTS).format())
        .isEqualTo(format);
  }

  @Test
  void detectsTheFixtures() {
    assertThat(detect(Fixtures.file("aiperf/qwen_concurrency1/profile_export.jsonl")))
        .isEqualTo("aiperf");
    assertThat(detect(Fixtures.file("guidellm/benchmarks_stripped.json"))).isEqualTo("guidellm");
    assertThat(detect(Fixtures.file("guidellm/benchmarks_stripped.yaml"))).isEqualTo("guidellm");
    assertThat(detect(Fixtures.file("guidellm/guidellm_report_v2.json"))).isEqualTo("guidellm");
    assertThat(detect(Fixtures.file("genai-perf/decoupled_output_file.json")))
        .isEqualTo("genai-perf");
  }

  @Test
  void aFileMatchingNothingListsEveryFormatTriedAndWhy() throws Exception {
    Path file =
        ClientFiles.write(dir, "summary.csv", "metric,p50,p95\nhttp_req_duration,850,1200\n");
    assertThatThrownBy(() -> ClientTimingReaders.forFile(file, "auto", ClientReadSettings.DEFAULTS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            file
                + ": client: no client format recognized (give --format); tried:\n"
                + "  csv: first line is not a CSV header with request_id and ttft_ms\n"
                + "  aiperf: no metadata.x_request_id, metadata.request_start_ns or"
                + " metadata.timestamp_ns in the first JSON object\n"
                + "  genai-perf: no top-level 'experiments' in a JSON object\n"
                + "  guidellm: no top-level 'benchmarks' (JSON or YAML)\n"
                + "  sglang-bench: no sglang bench_serving keys (backend, dataset_name without"
                + " date) in a JSON object\n"
                + "  vllm-bench: no vllm bench result keys (date, endpoint_type, start_times,"
                + " ttfts) in a JSON object\n"
                + "  llmperf: not a JSON array of objects with ttft_s / end_to_end_latency_s\n"
                + "  jmeter: not a JMeter JTL (no <testResults>, no timeStamp,elapsed header, no"
                + " epoch-ms row)\n"
                + "  wrk: first line is not the header of our wrk script ("
                + WrkClientTimingReader.HEADER
                + ")\n"
                + "  nginx: first line is not an NGINX access-log line of the tokentrace,"
                + " tokentrace_json or combined log_format (give --format nginx --log-format"
                + " '<log_format ...>' for another)\n"
                + "  envoy: first line is not an Envoy access-log line of the default format or JSON"
                + " with start_time and duration (give --format envoy --log-format '<format>' for"
                + " another)");
  }

  @Test
  void anEmptyOrBinaryFileSaysSo() throws Exception {
    Path empty = ClientFiles.write(dir, "empty.json", "  \n");
    assertThatThrownBy(
            () -> ClientTimingReaders.forFile(empty, "auto", ClientReadSettings.DEFAULTS))
        .hasMessage(empty + ": client: no client format recognized: the file is empty");
    Path binary = dir.resolve("x.bin");
    Files.write(binary, new byte[] {0x7b, 0x00, 0x01});
    assertThatThrownBy(
            () -> ClientTimingReaders.forFile(binary, "auto", ClientReadSettings.DEFAULTS))
        .hasMessage(
            binary + ": client: no client format recognized: the file is binary (NUL bytes)");
  }

  @Test
  void aNamedFormatIsTakenAsGiven() throws Exception {
    Path file = ClientFiles.write(dir, "x.json", "{}");
    assertThat(ClientTimingReaders.forFile(file, "GuideLLM", ClientReadSettings.DEFAULTS).format())
        .isEqualTo("guidellm");
  }

  private static String detect(Path file) {
    return ClientTimingReaders.forFile(file, "auto", ClientReadSettings.DEFAULTS).format();
  }
}
