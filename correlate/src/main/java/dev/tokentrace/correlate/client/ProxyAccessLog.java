package dev.tokentrace.correlate.client;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ProxyRequest;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ProxyLogLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A P/D proxy's access log (docs/formats/pd.md#proxy-access-log): one JSON object per line with the
 * client's request ID ({@code client_request_id}) and the ID the proxy sent to the prefill and
 * decode servers ({@code upstream_request_id}), optionally {@code ts}, {@code prefill}, {@code
 * decode} and {@code status}. Loaded by {@code clients} into {@code proxy_requests}; the
 * attribution joins the client rows whose key the log names by the servers' key
 * (attribution/proxy_keys), so a client ID the proxy rewrote still joins.
 */
public final class ProxyAccessLog {
  /** {@code run_files.kind} of a proxy access log. */
  public static final String KIND = "proxy-log";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How much of a file {@link #recognizes} reads. */
  private static final int HEAD = 64 * 1024;

  private ProxyAccessLog() {}

  /** One line's mapping. */
  record Entry(
      long line,
      @Nullable Instant ts,
      String clientId,
      String upstreamId,
      @Nullable String prefill,
      @Nullable String decode,
      @Nullable Integer status) {}

  /** The lines read: mappings, and one message per rejected line (file, line, reason). */
  record Read(List<Entry> entries, List<String> rejected, long ignored) {}

  /** Whether {@code file}'s first non-blank line is a proxy access-log line. */
  public static boolean recognizes(Path file) {
    if (!Files.isRegularFile(file)) {
      return false;
    }
    try (BufferedReader in = Files.newBufferedReader(file, UTF_8)) {
      // the first HEAD characters only: a client's compact JSON report can be one huge line
      char[] head = new char[HEAD];
      int read = in.read(head, 0, HEAD);
      if (read <= 0) {
        return false;
      }
      for (String line : new String(head, 0, read).split("\n", -1)) {
        if (!line.isBlank()) {
          if (line.length() == read && read == HEAD) {
            return false; // no line end within the head: not one of our short lines
          }
          JsonNode node = JSON.readTree(line);
          return node != null
              && node.isObject()
              && node.has("client_request_id")
              && node.has("upstream_request_id");
        }
      }
      return false;
    } catch (IOException | RuntimeException e) {
      return false; // not JSON, or not text: some other reader's file
    }
  }

  /** Reads every line: blank lines are ignored, a line without both IDs is rejected. */
  static Read read(Path file) {
    List<Entry> entries = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    long ignored = 0;
    try (BufferedReader in = Files.newBufferedReader(file, UTF_8)) {
      String text;
      long line = 0;
      while ((text = in.readLine()) != null) {
        line++;
        if (text.isBlank()) {
          ignored++;
          continue;
        }
        try {
          ProxyRequest event =
              ProxyLogLine.parse(
                  text, Engine.VLLM, KIND, new SourcePosition(file.toString(), line, 0));
          entries.add(
              new Entry(
                  line,
                  event.ts(),
                  event.clientRequestId(),
                  event.upstreamRequestId(),
                  event.prefill(),
                  event.decode(),
                  event.status()));
        } catch (IllegalArgumentException e) {
          rejected.add(file + ":" + line + ": " + ProxyLogLine.REASON + e.getMessage());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return new Read(entries, rejected, ignored);
  }

  /** Stores {@code entries} of {@code file} as rows of run {@code runId}. */
  static void insert(Connection connection, String runId, Path file, List<Entry> entries)
      throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO proxy_requests (run_id, source_path, source_line, ts, client_request_id,"
                + " client_key, upstream_request_id, upstream_key, prefill, decode, status)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (Entry e : entries) {
        insert.setString(1, runId);
        insert.setString(2, file.toString());
        insert.setLong(3, e.line());
        insert.setTimestamp(
            4,
            e.ts() == null
                ? null
                : Timestamp.valueOf(LocalDateTime.ofInstant(e.ts(), ZoneOffset.UTC)));
        insert.setString(5, e.clientId());
        insert.setString(6, RequestKeys.normalize(e.clientId()));
        insert.setString(7, e.upstreamId());
        insert.setString(8, RequestKeys.normalize(e.upstreamId()));
        insert.setString(9, e.prefill());
        insert.setString(10, e.decode());
        if (e.status() == null) {
          insert.setNull(11, java.sql.Types.INTEGER);
        } else {
          insert.setInt(11, e.status());
        }
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }
}
