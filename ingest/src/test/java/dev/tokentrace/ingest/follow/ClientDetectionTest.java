package dev.tokentrace.ingest.follow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.clients.ClientLineReader;
import dev.tokentrace.clients.ClientReadSettings;
import dev.tokentrace.clients.ClientReaderOutput;
import dev.tokentrace.clients.ClientRejection;
import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.clients.ClientTimingReaders;
import dev.tokentrace.clients.FileHead;
import dev.tokentrace.event.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A followed gateway log in the user's own {@code --log-format} is detected and read in that
 * layout, a resumed reader keeps the layout it started with, and a bad directive is refused in one
 * line (docs/follow.md#client-files).
 */
final class ClientDetectionTest {
  static final String LOG_FORMAT =
      "log_format gw '$remote_addr [$time_local] \"$request\" $status rt=$request_time"
          + " ts=$msec rid=$http_x_request_id';";

  static final String LOG =
      "10.0.0.7 [02/Dec/2026:03:00:00 +0000] \"POST /v1/completions HTTP/1.1\" 200 rt=0.912"
          + " ts=1796180400.912 rid=req-1\n"
          + "10.0.0.7 [02/Dec/2026:03:00:01 +0000] \"POST /v1/completions HTTP/1.1\" 502 rt=0.050"
          + " ts=1796180401.050 rid=req-2\n"
          + "not a gateway line\n";

  private static final ClientReadSettings CUSTOM = new ClientReadSettings(null, LOG_FORMAT, null);

  @Test
  void aLogInTheGivenLayoutIsDetectedAsNginxAndReadInIt() {
    assertThat(ClientDetection.detect(LOG.getBytes(UTF_8), ClientReadSettings.DEFAULTS).reader())
        .isNull();
    ClientDetection.Choice choice = ClientDetection.detect(LOG.getBytes(UTF_8), CUSTOM);
    assertThat(choice.failure()).isNull();
    assertThat(choice.reader()).isNotNull();
    assertThat(choice.reader().format()).isEqualTo("nginx");

    ClientLineReader reader = choice.reader().lineReader(FileHead.of(LOG.getBytes(UTF_8)), null);
    Collected out = feed(reader, LOG);
    assertThat(out.rows).extracting(ClientTiming::requestId).containsExactly("req-1", "req-2");
    assertThat(out.rows.get(0).e2eMs()).isEqualTo(912.0);
    assertThat(out.rows.get(1).status()).isEqualTo("http 502");
    assertThat(out.rejected).singleElement().asString().contains("does not match");
    assertThat(reader.state()).isEqualTo("log-format:" + LOG_FORMAT);
  }

  @Test
  void aResumedReaderKeepsTheLayoutItStartedWithAndSaysSo() {
    ClientLineReader started =
        ClientTimingReaders.forFormat("nginx", CUSTOM)
            .lineReader(FileHead.of(LOG.getBytes(UTF_8)), null);
    // restarted without --log-format: the checkpoint's state still reads the file
    ClientLineReader resumed =
        ClientTimingReaders.forFormat("nginx", ClientReadSettings.DEFAULTS)
            .lineReader(FileHead.of(LOG.getBytes(UTF_8)), started.state());
    Collected out = feed(resumed, LOG.substring(LOG.indexOf('\n') + 1));
    assertThat(out.rows).extracting(ClientTiming::requestId).containsExactly("req-2");
    assertThat(out.warnings).singleElement().asString().contains("started with --log-format");
    assertThat(resumed.state()).isEqualTo(started.state());
  }

  @Test
  void aDirectiveNoGatewayCanReadIsOneLineNamingEachReason() {
    assertThat(ClientTimingReaders.logFormatProblem(CUSTOM)).isNull();
    assertThat(ClientTimingReaders.logFormatProblem(ClientReadSettings.DEFAULTS)).isNull();
    assertThat(
            ClientTimingReaders.logFormatProblem(
                new ClientReadSettings(null, "%START_TIME% %DURATION% %REQ(X-REQUEST-ID)%", null)))
        .isNull();
    String noTime =
        ClientTimingReaders.logFormatProblem(
            new ClientReadSettings(null, "log_format x '$msec\n $http_x_request_id';", null));
    assertThat(noTime).doesNotContain("\n").contains("$request_time").contains("envoy:");
    assertThat(
            ClientTimingReaders.logFormatProblem(
                new ClientReadSettings(null, "log_format x escape=yaml '$msec';", null)))
        .contains("unsupported log_format escape=yaml");
  }

  private static Collected feed(ClientLineReader reader, String text) {
    Collected out = new Collected();
    long offset = 0;
    long number = 1;
    for (String line : text.split("\n", -1)) {
      if (line.isEmpty()) {
        continue;
      }
      reader.line(new SourcePosition("gw.log", number++, offset), line, out);
      offset += line.getBytes(UTF_8).length + 1;
    }
    return out;
  }

  private static final class Collected implements ClientReaderOutput {
    final List<ClientTiming> rows = new ArrayList<>();
    final List<String> rejected = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();

    @Override
    public void row(ClientTiming timing) {
      rows.add(timing);
    }

    @Override
    public void rejected(ClientRejection rejection) {
      rejected.add(rejection.reason());
    }

    @Override
    public void warning(SourcePosition position, String message) {
      warnings.add(message);
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      throw new AssertionError(position + ": ignored " + rule);
    }
  }
}
