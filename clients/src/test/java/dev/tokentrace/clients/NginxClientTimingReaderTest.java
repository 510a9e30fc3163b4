package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NGINX access-log lines composed by us to the log_format strings of docs/formats/gateways.md#nginx
 * (variables as documented for nginx 1.22: ngx_http_log_module, ngx_http_upstream_module).
 */
final class NginxClientTimingReaderTest {
  @TempDir Path dir;

  private static NginxClientTimingReader reader() {
    return new NginxClientTimingReader(ClientReadSettings.DEFAULTS);
  }

  private static NginxClientTimingReader reader(String logFormat, String idColumn) {
    return new NginxClientTimingReader(new ClientReadSettings(null, logFormat, idColumn));
  }

  @Test
  void readsOurLogFormatWithStartFromMsecMinusRequestTime() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "access.log",
            "1767225600.250 200 0.250 \"req-1\" \"9f0c\" \"127.0.0.1:8000\" \"200\" \"0.001\""
                + " \"0.020\" \"0.248\" 512\n"
                + "1767225601.000 200 0.500 \"-\" \"abc123\" \"127.0.0.1:8000\" \"200\" \"0.000\""
                + " \"0.010\" \"0.499\" 100\n");
    CollectingSink sink = ClientFiles.read(reader(), file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows).hasSize(2);
    ClientTiming first = sink.rows.get(0);
    assertThat(first.requestId()).isEqualTo("req-1");
    assertThat(first.vantage()).isEqualTo("gateway");
    assertThat(first.timingView()).isEqualTo("e2e");
    assertThat(first.startTs()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(first.e2eMs()).isCloseTo(250.0, within(1e-9));
    assertThat(first.ttftMs()).isNull();
    assertThat(first.outputTokens()).isNull();
    assertThat(first.gateway().upstreamConnectMs()).isCloseTo(1.0, within(1e-9));
    assertThat(first.gateway().upstreamHeaderMs()).isCloseTo(20.0, within(1e-9));
    assertThat(first.gateway().upstreamResponseMs()).isCloseTo(248.0, within(1e-9));
    assertThat(first.gateway().upstreamAttempts()).isEqualTo(1);
    assertThat(first.gateway().httpStatus()).isEqualTo(200);
    // no X-Request-Id from the client: NGINX's own $request_id, which it forwarded
    assertThat(sink.rows.get(1).requestId()).isEqualTo("abc123");
  }

  @Test
  void keepsSeveralUpstreamsAsRetriesAndTakesTheLastAttempt() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "access.log",
            "1767225600.900 200 0.900 \"req-2\" \"x\" \"10.0.0.1:8000, 10.0.0.2:8000\" \"502, 200\""
                + " \"0.001, 0.002\" \"-, 0.100\" \"0.300, 0.590\" 10\n");
    CollectingSink sink = ClientFiles.read(reader(), file);

    ClientTiming row = sink.rows.get(0);
    assertThat(row.gateway().upstreamAttempts()).isEqualTo(2);
    assertThat(row.gateway().upstreamResponseMs()).isCloseTo(590.0, within(1e-9));
    assertThat(row.gateway().upstreamHeaderMs()).isCloseTo(100.0, within(1e-9));
    assertThat(row.gateway().upstreamAddr()).isEqualTo("10.0.0.1:8000, 10.0.0.2:8000");
    assertThat(row.ok()).isTrue();
  }

  @Test
  void dashForMissingUpstreamTimesIsNullAndAClientAbortIsAFailedRow() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "access.log",
            "1767225600.100 499 0.100 \"req-3\" \"x\" \"127.0.0.1:8000\" \"-\" \"0.001\" \"-\""
                + " \"0.099\" 0\n");
    CollectingSink sink = ClientFiles.read(reader(), file);

    ClientTiming row = sink.rows.get(0);
    assertThat(row.status()).isEqualTo("http 499");
    assertThat(row.gateway().upstreamHeaderMs()).isNull();
    assertThat(row.gateway().upstreamResponseMs()).isCloseTo(99.0, within(1e-9));
  }

  @Test
  void readsTheEscapeJsonVariant() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "access.json",
            "{\"msec\":\"1767225600.250\",\"status\":\"200\",\"request_time\":\"0.250\","
                + "\"http_x_request_id\":\"req\\\"q\",\"request_id\":\"9f\",\"upstream_addr\":"
                + "\"127.0.0.1:8000\",\"upstream_status\":\"200\",\"upstream_connect_time\":"
                + "\"0.001\",\"upstream_header_time\":\"0.020\",\"upstream_response_time\":"
                + "\"0.248\",\"body_bytes_sent\":\"512\"}\n");
    assertThat(reader().recognize(FileHead.of(file)).matches()).isTrue();
    CollectingSink sink = ClientFiles.read(reader(), file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows.get(0).requestId()).isEqualTo("req\"q");
    assertThat(sink.rows.get(0).e2eMs()).isCloseTo(250.0, within(1e-9));
  }

  @Test
  void buildsTheReaderFromTheLogFormatDirective() throws Exception {
    String directive =
        "log_format mine '$remote_addr [$time_local] $request_id rt=$request_time'\n"
            + "               ' end=$msec ua=\"$http_user_agent\" s=$status';";
    Path file =
        ClientFiles.write(
            dir,
            "mine.log",
            "10.1.1.1 [01/Jan/2026:00:00:00 +0000] r-9 rt=1.500 end=1767225601.500 ua=\"x y\""
                + " s=200\n");
    CollectingSink sink = ClientFiles.read(reader(directive, "request_id"), file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows.get(0).requestId()).isEqualTo("r-9");
    assertThat(sink.rows.get(0).startTs()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(sink.rows.get(0).gateway().upstreamAttempts()).isNull();
  }

  @Test
  void aLayoutWithoutStatusCountsEveryRequestAsCompleted() throws Exception {
    Path file = ClientFiles.write(dir, "short.log", "1767225600.500 0.500 r1\n");
    CollectingSink sink =
        ClientFiles.read(reader("'$msec $request_time $http_x_request_id'", null), file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows.get(0).ok()).isTrue();
    assertThat(sink.rows.get(0).gateway().httpStatus()).isNull();
  }

  @Test
  void refusesTheCombinedFormatWithAClearMessage() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "combined.log",
            "127.0.0.1 - - [01/Jan/2026:00:00:00 +0000] \"POST /v1/completions HTTP/1.1\" 200 512"
                + " \"-\" \"curl/8\"\n");
    assertThat(reader().recognize(FileHead.of(file)).matches()).isTrue();
    CollectingSink sink = ClientFiles.read(reader(), file);

    assertThat(sink.rows).isEmpty();
    assertThat(sink.messages())
        .containsExactly(
            file
                + ":1: client: nginx: the log format has no $request_time, so the log carries no"
                + " timings (this is NGINX's default 'combined' format): log the tokentrace"
                + " log_format (docs/guide.md, 'NGINX') (file skipped)");
  }

  @Test
  void rejectsLinesWithoutIdOfAnotherLayoutOrWithBadTimes() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "access.log",
            "1767225600.250 200 0.250 \"-\" \"-\" \"127.0.0.1:8000\" \"200\" \"0.001\" \"0.020\""
                + " \"0.248\" 512\n"
                + "127.0.0.1 - - [01/Jan/2026:00:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"c\"\n"
                + "1767225600.250 200 abc \"r\" \"-\" \"-\" \"-\" \"-\" \"-\" \"-\" 0\n"
                + "1767225600.250 200 0.1 \"r2\" \"-\" \"-\" \"-\" \"-\" \"-\" \"-\" 0\n");
    CollectingSink sink = ClientFiles.read(reader(), file);

    assertThat(sink.reasons())
        .containsExactly(
            "no request id (http_x_request_id, request_id empty or '-')",
            "line is in NGINX's 'combined' format, which carries no timings",
            "bad '$request_time' value \"abc\"");
    // a request NGINX answered itself: kept, no upstream; it joins no engine record
    assertThat(sink.rows).hasSize(1);
    assertThat(sink.rows.get(0).gateway().upstreamAttempts()).isNull();
  }

  @Test
  void refusesALogFormatWithoutTimesOrIds() throws Exception {
    Path file = ClientFiles.write(dir, "x.log", "a 1.0\n");
    assertThat(ClientFiles.read(reader("'$remote_addr $request_time'", null), file).reasons())
        .containsExactly(
            "nginx: the log format has no $msec ($time_local and $time_iso8601 have whole seconds):"
                + " log the tokentrace log_format (docs/guide.md, 'NGINX') (file skipped)");
    assertThat(ClientFiles.read(reader("'$remote_addr $request_time $msec'", null), file).reasons())
        .singleElement()
        .asString()
        .startsWith("nginx: the log format has no request id variable");
    assertThat(ClientFiles.read(reader("log_format x escape=weird '$msec';", null), file).reasons())
        .containsExactly("nginx: --log-format: unsupported log_format escape=weird (file skipped)");
  }
}
