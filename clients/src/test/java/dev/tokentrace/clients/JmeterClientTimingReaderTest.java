package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMeter JTL files composed by us with the columns and XML attributes of JMeter 5.6's listeners
 * documentation (docs/formats/gateways.md#jmeter), our own values.
 */
final class JmeterClientTimingReaderTest {
  @TempDir Path dir;

  private static final String HEADER =
      "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
          + "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,"
          + "request_id";

  private static JmeterClientTimingReader reader() {
    return new JmeterClientTimingReader(ClientReadSettings.DEFAULTS);
  }

  @Test
  void readsTheDefaultColumnsWithLatencyAsFirstByteNotFirstToken() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "results.jtl",
            HEADER
                + "\n1767225600000,812,chat,200,OK,Users 1-1,text,true,,4096,300,1,1,"
                + "http://127.0.0.1:8000/v1/completions,35,0,2,jm-1\n"
                + "1767225601000,15,chat,503,Service Unavailable,Users 1-1,text,false,,10,300,1,1,"
                + "http://127.0.0.1:8000/v1/completions,15,0,1,jm-2\n");
    assertThat(reader().recognize(FileHead.of(file)).matches()).isTrue();
    CollectingSink sink = ClientFiles.read(reader(), file);

    assertThat(sink.rejections).isEmpty();
    ClientTiming row = sink.rows.get(0);
    assertThat(row.requestId()).isEqualTo("jm-1");
    assertThat(row.startTs()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(row.e2eMs()).isEqualTo(812.0);
    assertThat(row.ttftMs()).isNull();
    assertThat(row.timingView()).isEqualTo("e2e");
    assertThat(row.vantage()).isEqualTo("client");
    assertThat(row.detail().waitMs()).isEqualTo(35.0);
    assertThat(row.detail().connectMs()).isEqualTo(2.0);
    assertThat(sink.rows.get(1).status()).isEqualTo("http 503");
  }

  @Test
  void readsAnyColumnSubsetInAnyDelimiterAndAnIdColumnByName() throws Exception {
    Path file =
        ClientFiles.write(
            dir, "subset.jtl", "timeStamp;elapsed;success;rid\n1767225600000;812;true;jm-9\n");
    CollectingSink sink =
        ClientFiles.read(
            new JmeterClientTimingReader(new ClientReadSettings(null, null, "rid")), file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows.get(0).requestId()).isEqualTo("jm-9");
    assertThat(sink.rows.get(0).detail()).isEqualTo(ClientDetail.NONE);
  }

  @Test
  void readsAHeaderlessFileInTheDefaultColumnsWithTheIdAfterThem() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "noheader.jtl",
            "1767225600000,812,chat,200,OK,Users 1-1,text,true,,4096,300,1,1,"
                + "http://127.0.0.1:8000/v1/completions,35,0,2,jm-1\n");
    assertThat(reader().recognize(FileHead.of(file)).matches()).isTrue();
    CollectingSink sink = ClientFiles.read(reader(), file);

    assertThat(sink.rows).singleElement().extracting(ClientTiming::requestId).isEqualTo("jm-1");
    assertThat(sink.warnings).singleElement().asString().contains("no header line");
  }

  @Test
  void rejectsRowsOfAnotherColumnSetAndFollowsANewHeaderWithAWarning() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "changed.jtl",
            "timeStamp,elapsed,success,request_id\n"
                + "1767225600000,812,true,jm-1\n"
                + "1767225600000,812,true,200,jm-2\n"
                + "timeStamp,elapsed,responseCode,success,request_id\n"
                + "1767225601000,700,200,true,jm-3\n"
                + "1767225601000,x,200,true,jm-4\n"
                + "1767225601000,7,200,true,\n");
    CollectingSink sink = ClientFiles.read(reader(), file);

    assertThat(sink.rows).extracting(ClientTiming::requestId).containsExactly("jm-1", "jm-3");
    assertThat(sink.messages())
        .containsExactly(
            file
                + ":3: client: wrong column count: 5, expected 4 (the column set changed without a"
                + " header line?)",
            file + ":6: client: bad 'elapsed' value \"x\"",
            file + ":7: client: missing value for 'request_id'");
    assertThat(sink.warnings).singleElement().asString().contains(":4: jmeter: the column set");
  }

  @Test
  void foldsSubSamplesOfOneRequestIntoTheParent() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "sub.jtl",
            "timeStamp,elapsed,label,success,request_id\n"
                + "1767225600000,800,chat,true,jm-1\n"
                + "1767225600000,300,chat-0,true,jm-1\n"
                + "1767225600300,500,chat-1,true,jm-1\n"
                + "1767225601000,700,chat,true,jm-2\n");
    CollectingSink sink = ClientFiles.read(reader(), file);

    assertThat(sink.rows).extracting(ClientTiming::e2eMs).containsExactly(800.0, 700.0);
    assertThat(sink.warnings).singleElement().asString().contains("ignored 2 sample(s)");
  }

  @Test
  void readsXmlAndIgnoresNestedSubSamples() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "results.xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n"
                + "<httpSample t=\"812\" it=\"0\" lt=\"35\" ct=\"2\" ts=\"1767225600000\" s=\"true\""
                + " lb=\"chat\" rc=\"200\" rm=\"OK\" tn=\"Users 1-1\" dt=\"text\" by=\"4096\""
                + " request_id=\"jm-1\">\n"
                + "  <httpSample t=\"400\" lt=\"35\" ts=\"1767225600000\" s=\"true\" lb=\"chat-0\""
                + " rc=\"200\" request_id=\"jm-1\"/>\n"
                + "</httpSample>\n"
                + "<httpSample t=\"90\" lt=\"90\" ts=\"1767225601000\" s=\"false\" lb=\"chat\""
                + " rc=\"500\" request_id=\"jm-2\"/>\n"
                + "<httpSample t=\"90\" lt=\"90\" ts=\"1767225601000\" s=\"true\" lb=\"chat\""
                + " rc=\"200\"/>\n"
                + "</testResults>\n");
    assertThat(reader().recognize(FileHead.of(file)).matches()).isTrue();
    CollectingSink sink = ClientFiles.read(reader(), file);

    assertThat(sink.rows).extracting(ClientTiming::requestId).containsExactly("jm-1", "jm-2");
    assertThat(sink.rows.get(0).detail().waitMs()).isEqualTo(35.0);
    assertThat(sink.rows.get(1).status()).isEqualTo("http 500");
    assertThat(sink.messages())
        .containsExactly(
            file
                + ":7: client: no request id attribute (sample_variables: one of request_id,"
                + " x_request_id, X-Request-Id, or name it with --id-column)");
    assertThat(sink.warnings).singleElement().asString().contains("ignored 1 sub-sample(s)");
  }
}
