package dev.tokentrace.correlate.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.TestQueries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A proxy's access log (docs/formats/pd.md#proxy-access-log) loaded with client files. */
final class ProxyAccessLogTest {
  private static final String LOG =
      "{\"ts\":\"2026-03-02T10:00:02.5Z\",\"client_request_id\":\"a\","
          + "\"upstream_request_id\":\"1111-aaaa\",\"prefill\":\"prefill-0\","
          + "\"decode\":\"decode-0\",\"status\":200}\n"
          + "\n"
          + "{\"client_request_id\":\"b\"}\n"
          + "not json\n";

  private static final String CLIENTS =
      "request_id,start_ts,ttft_ms,e2e_ms,output_tokens\n"
          + "a,2026-03-02T10:00:00Z,10,20,5\n"
          + "c,2026-03-02T10:00:01Z,11,21,6\n";

  @TempDir Path dir;
  private Database database;
  private ClientTimingLoader loader;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
    loader =
        new ClientTimingLoader(
            database, Clock.fixed(Instant.parse("2026-03-02T11:00:00Z"), ZoneOffset.UTC));
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void recognizesOnlyItsOwnLines() throws Exception {
    assertThat(ProxyAccessLog.recognizes(write("access.jsonl", LOG))).isTrue();
    assertThat(ProxyAccessLog.recognizes(write("run.csv", CLIENTS))).isFalse();
    assertThat(ProxyAccessLog.recognizes(write("other.jsonl", "{\"request_id\":\"a\"}\n")))
        .isFalse();
  }

  @Test
  void everyLineIsMappedIgnoredOrRejectedWithItsLine() throws Exception {
    Path log = write("access.jsonl", LOG);
    ProxyAccessLog.Read read = ProxyAccessLog.read(log);
    assertThat(read.entries()).hasSize(1);
    assertThat(read.entries().get(0).upstreamId()).isEqualTo("1111-aaaa");
    assertThat(read.ignored()).isEqualTo(1);
    assertThat(read.rejected())
        .containsExactly(
            log
                + ":3: proxy-log: client_request_id and upstream_request_id must both be"
                + " non-empty strings",
            log + ":4: proxy-log: not a JSON object");
  }

  @Test
  void clientRowsTakeTheServersKeyInEitherOrder() throws Exception {
    Path log = write("access.jsonl", LOG);
    Path clients = write("run.csv", CLIENTS);
    // the log first, the client file in a later run: the attribution's join does not care
    loader.load(new ClientLoadSettings(List.of(log), "auto", null, null, "clients log", 1.0));
    loader.load(new ClientLoadSettings(List.of(clients), "csv", null, null, "clients csv", 1.0));
    String keys = "SELECT request_id, request_key FROM client_timing ORDER BY request_id";
    // stored as loaded: nothing is rewritten in place
    assertThat(TestQueries.rows(database, keys))
        .containsExactly(
            Map.of("request_id", "a", "request_key", "a"),
            Map.of("request_id", "c", "request_key", "c"));
    // as the attribution reads them (attribution/proxy_keys shadows client_timing)
    List<Map<String, Object>> mapped =
        database
            .jdbi()
            .inTransaction(
                handle -> {
                  handle.execute(SqlCatalog.get(Queries.PROXY_KEYS));
                  List<Map<String, Object>> rows = handle.createQuery(keys).mapToMap().list();
                  handle.execute("DROP TABLE temp.client_timing");
                  return rows;
                });
    assertThat(mapped)
        .containsExactly(
            Map.of("request_id", "a", "request_key", "1111-aaaa"),
            Map.of("request_id", "c", "request_key", "c"));
    assertThat(TestQueries.rows(database, "SELECT client_key, prefill FROM proxy_requests"))
        .containsExactly(Map.of("client_key", "a", "prefill", "prefill-0"));
  }

  @Test
  void replacingALogRemovesItsEarlierLines() throws Exception {
    Path log = write("access.jsonl", LOG);
    ClientLoadSettings settings =
        new ClientLoadSettings(List.of(log), "auto", null, null, "clients log", 1.0);
    loader.load(settings);
    loader.load(settings, true);
    assertThat(TestQueries.rows(database, "SELECT client_key FROM proxy_requests"))
        .containsExactly(Map.of("client_key", "a"));
  }

  private Path write(String name, String content) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    return file;
  }
}
