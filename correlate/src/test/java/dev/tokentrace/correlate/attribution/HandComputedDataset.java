package dev.tokentrace.correlate.attribution;

import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * A small benchmark whose attribution is computed by hand (numbers in AttributionTest). Server rows
 * are inserted directly, as the ingest sink would write them; client rows go through the CSV
 * loader.
 *
 * <pre>
 * key  client ttft/e2e/tokens/queue  conc  server queue/prefill/decode/ttft/e2e/tokens  expected
 * r1   60 / 480 / 101 / 3             1     5 / 40 / 400 / 45 / 445 / 101             decode, included
 * r2   270 / 360 / 51 / -             8     200 / 50 / 80 / 250 / 330 / 51            queue, included
 * r3   330 / 440 / 21 / 0             8     2 / 300 / 100 / 302 / 402 / 21            prefill, included
 * r4   55 / 500 / 11 / -              1     10 / 50 / 500 / 60 / 560 / 11             network -60: suspect
 * r5   100 / 610 / 25 / 0             1     20 / - / - / 80 / 580 / 26 (V0 span)       derived, included
 * r6   50 / 100 / 10                  1     two otlp rows                             duplicate (server)
 * r7   50 / 200 / 10                  1     request_arrived only (text log)            arrival_only
 * r8   40 / 90 / 5                    8     none                                      client_only
 * r11  70 / 140 / 8 and 75 / 150 / 8  8     one row                                   duplicate (client)
 * w1   600 / 700 / 11, warmup flag    1     1 / 500 / 100 / 501 / 601 / 11            warm-up
 * f1   status timeout, no timings     1     none                                      client error
 * r9, r10: server only (timing, arrival). One bad client row ("bad") and one server reject.
 * </pre>
 */
public final class HandComputedDataset {
  public static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-03-01T13:00:00Z"), ZoneOffset.UTC);

  static final String CLIENT_CSV =
      String.join(
          "\n",
          "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,client_queue_ms,concurrency,status,warmup",
          "w1,2026-03-01T12:00:00Z,600,700,11,,1,,true",
          "r1,2026-03-01T12:00:01Z,60,480,101,3,1,,",
          "r2,2026-03-01T12:00:02Z,270,360,51,,8,,",
          "r3,2026-03-01T12:00:03Z,330,440,21,0,8,,",
          "r4,2026-03-01T12:00:04Z,55,500,11,,1,,",
          "r5,2026-03-01T12:00:05Z,100,610,25,0,1,,",
          "r6,2026-03-01T12:00:06Z,50,100,10,,1,,",
          "r7,2026-03-01T12:00:07Z,50,200,10,,1,,",
          "r8,2026-03-01T12:00:08Z,40,90,5,,8,,",
          "r11,2026-03-01T12:00:09Z,70,140,8,,8,,",
          "r11,2026-03-01T12:00:10Z,75,150,8,,8,,",
          "f1,2026-03-01T12:00:11Z,,,,,1,timeout,",
          "bad,2026-03-01T12:00:12Z,oops,1,1,,1,,",
          "");

  private HandComputedDataset() {}

  /** Loads the dataset into {@code database}; the client file is written to {@code dir}. */
  public static Path load(Database database, Path dir) throws Exception {
    database.jdbi().useHandle(HandComputedDataset::insertServerRows);
    Path client = dir.resolve("client.csv");
    Files.writeString(client, CLIENT_CSV);
    new ClientTimingLoader(database, CLOCK)
        .load(
            new ClientLoadSettings(
                List.of(client), "csv", "bench-1", null, "tokentrace clients client.csv", 1.0));
    return client;
  }

  private static void insertServerRows(Handle handle) {
    timing(handle, "r1", 5.0, 40.0, 400.0, 45.0, 445.0, 101, 10);
    timing(handle, "r2", 200.0, 50.0, 80.0, 250.0, 330.0, 51, 11);
    timing(handle, "r3", 2.0, 300.0, 100.0, 302.0, 402.0, 21, 12);
    timing(handle, "r4", 10.0, 50.0, 500.0, 60.0, 560.0, 11, 13);
    timing(handle, "r5", 20.0, null, null, 80.0, 580.0, 26, 14);
    timing(handle, "r6", 1.0, 10.0, 30.0, 11.0, 41.0, 10, 15);
    timing(handle, "r6", 1.0, 10.0, 31.0, 11.0, 42.0, 10, 16);
    timing(handle, "r9", 1.0, 10.0, 30.0, 11.0, 41.0, 10, 17);
    timing(handle, "r11", 1.0, 20.0, 40.0, 21.0, 61.0, 8, 18);
    timing(handle, "w1", 1.0, 500.0, 100.0, 501.0, 601.0, 11, 19);
    arrival(handle, "r1", 1);
    arrival(handle, "r7", 2);
    arrival(handle, "r10", 3);
    handle.execute(
        "INSERT INTO rejects VALUES ('logs/server.log', 4, 120, 'vllm', 'stats line: bad value', 'x',"
            + " TIMESTAMP '2026-03-01 12:59:00')");
  }

  private static void timing(
      Handle handle,
      String key,
      Double queue,
      Double prefill,
      Double decode,
      double ttft,
      double e2e,
      int tokens,
      int line) {
    handle
        .createUpdate(
            "INSERT INTO request_timing (engine, instance, ts, source_path, source_line, source_offset,"
                + " request_id, request_key, queue_ms, prefill_ms, decode_ms, server_ttft_ms, e2e_ms,"
                + " output_tokens, source_kind) VALUES ('vllm', 'gpu-0', TIMESTAMP '2026-03-01 12:00:30',"
                + " 'logs/otlp.jsonl', :line, 0, :id, :key, :queue, :prefill, :decode, :ttft, :e2e, :tokens,"
                + " 'otlp')")
        .bind("line", line)
        .bind("id", "chatcmpl-" + key)
        .bind("key", key)
        .bind("queue", queue)
        .bind("prefill", prefill)
        .bind("decode", decode)
        .bind("ttft", ttft)
        .bind("e2e", e2e)
        .bind("tokens", tokens)
        .execute();
  }

  private static void arrival(Handle handle, String key, int line) {
    handle
        .createUpdate(
            "INSERT INTO request_arrived (engine, instance, ts, source_path, source_line, source_offset,"
                + " request_id, request_key) VALUES ('vllm', 'gpu-0', TIMESTAMP '2026-03-01 12:00:07',"
                + " 'logs/server.log', :line, 0, :id, :key)")
        .bind("line", line)
        .bind("id", "chatcmpl-" + key)
        .bind("key", key)
        .execute();
  }
}
