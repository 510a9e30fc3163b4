package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Envoy access-log lines composed by us to the command operators of Envoy's access-log docs (v1.31,
 * docs/formats/gateways.md#envoy); Envoy is not packaged in Debian, so no real Envoy runs.
 */
final class EnvoyClientTimingReaderTest {
  @TempDir Path dir;

  private static EnvoyClientTimingReader reader(String logFormat) {
    return new EnvoyClientTimingReader(new ClientReadSettings(null, logFormat, null));
  }

  @Test
  void readsTheDefaultFormat() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "envoy.log",
            "[2026-01-01T00:00:00.125Z] \"POST /v1/completions HTTP/1.1\" 200 - 120 4096 830 12"
                + " \"-\" \"python-httpx/0.27\" \"req-1\" \"llm.local\" \"10.0.0.7:8000\"\n"
                + "[2026-01-01T00:00:01.000Z] \"POST /v1/completions HTTP/1.1\" 503 UF 120 91 4 -"
                + " \"-\" \"python-httpx/0.27\" \"req-2\" \"llm.local\" \"-\"\n");
    EnvoyClientTimingReader reader = reader(null);
    assertThat(reader.recognize(FileHead.of(file)).matches()).isTrue();
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rejections).isEmpty();
    ClientTiming first = sink.rows.get(0);
    assertThat(first.requestId()).isEqualTo("req-1");
    assertThat(first.startTs()).isEqualTo(Instant.parse("2026-01-01T00:00:00.125Z"));
    assertThat(first.e2eMs()).isEqualTo(830.0);
    assertThat(first.vantage()).isEqualTo("gateway");
    assertThat(first.gateway().upstreamHeaderMs()).isEqualTo(12.0);
    assertThat(first.gateway().upstreamAddr()).isEqualTo("10.0.0.7:8000");
    ClientTiming failed = sink.rows.get(1);
    assertThat(failed.status()).isEqualTo("http 503");
    assertThat(failed.gateway().upstreamHeaderMs()).isNull();
    assertThat(failed.gateway().upstreamAddr()).isNull();
  }

  @Test
  void readsJsonLinesWithOurKeysAndWithKeysMappedByTheFormatDictionary() throws Exception {
    Path ours =
        ClientFiles.write(
            dir,
            "envoy.json",
            "{\"start_time\":\"2026-01-01T00:00:00.000Z\",\"duration\":640,\"response_duration\":15,"
                + "\"x_request_id\":\"req-7\",\"upstream_host\":\"10.0.0.7:8000\","
                + "\"response_code\":200,\"upstream_request_attempt_count\":2}\n");
    CollectingSink sink = ClientFiles.read(reader(null), ours);
    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows.get(0).e2eMs()).isEqualTo(640.0);
    assertThat(sink.rows.get(0).gateway().upstreamAttempts()).isEqualTo(2);
    assertThat(sink.rows.get(0).gateway().upstreamHeaderMs()).isEqualTo(15.0);

    Path theirs =
        ClientFiles.write(
            dir,
            "theirs.json",
            "{\"ts\":\"2026-01-01T00:00:00.000Z\",\"ms\":\"640\",\"rid\":\"req-8\",\"code\":\"200\"}\n");
    CollectingSink mapped =
        ClientFiles.read(
            reader(
                "{\"ts\":\"%START_TIME%\",\"ms\":\"%DURATION%\",\"rid\":\"%REQ(X-REQUEST-ID)%\","
                    + "\"code\":\"%RESPONSE_CODE%\"}"),
            theirs);
    assertThat(mapped.rejections).isEmpty();
    assertThat(mapped.rows.get(0).requestId()).isEqualTo("req-8");
  }

  @Test
  void readsACustomFormatStringWithAnEpochStartTime() throws Exception {
    Path file = ClientFiles.write(dir, "custom.log", "1767225600.500 req-3 200 dur=250 rsp=20\n");
    CollectingSink sink =
        ClientFiles.read(
            reader(
                "%START_TIME(%s.%3f)% %REQ(X-REQUEST-ID)% %RESPONSE_CODE% dur=%DURATION%"
                    + " rsp=%RESPONSE_DURATION%\\n"),
            file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows.get(0).startTs()).isEqualTo(Instant.parse("2026-01-01T00:00:00.500Z"));
    assertThat(sink.rows.get(0).e2eMs()).isCloseTo(250.0, within(1e-9));
  }

  @Test
  void rejectsLinesWithoutIdAndFormatsWithoutTimings() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "envoy.log",
            "[2026-01-01T00:00:00.125Z] \"POST /v1/completions HTTP/1.1\" 200 - 120 4096 830 12"
                + " \"-\" \"ua\" \"-\" \"llm.local\" \"10.0.0.7:8000\"\n"
                + "not an envoy line\n");
    assertThat(ClientFiles.read(reader(null), file).reasons())
        .containsExactly(
            "no request id (REQ(X-REQUEST-ID) empty or '-')",
            "line does not match the envoy log format");
    assertThat(ClientFiles.read(reader("%REQ(X-REQUEST-ID)% %RESPONSE_CODE%"), file).reasons())
        .containsExactly(
            "envoy: the log format has no %START_TIME%, so the log carries no timings (file"
                + " skipped)");
  }
}
