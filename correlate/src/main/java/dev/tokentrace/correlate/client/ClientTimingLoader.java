package dev.tokentrace.correlate.client;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.clients.ClientRejection;
import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.clients.ClientTimingReader;
import dev.tokentrace.clients.ClientTimingReaders;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.Runs;
import dev.tokentrace.store.TableAppender;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.duckdb.DuckDBConnection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads client timing files into {@code client_timing} (rows) and {@code rejects} (bad rows, engine
 * {@value ClientRejection#ENGINE}) as one run, recorded in {@code runs} and {@code run_files} with
 * each file's size and SHA-256. All of it is one DuckDB transaction: a failure leaves nothing half
 * loaded. A file whose content an earlier run already loaded is skipped, so repeating a command
 * cannot double-count requests. Rows go through the Appender
 * (docs/design.md#appender-and-transactions). Thread-safe.
 */
public final class ClientTimingLoader {
  /**
   * At most this many rejection and warning messages are kept in the result; all go to the table.
   */
  public static final int MAX_MESSAGES = 200;

  /** {@code runs.kind} of a client load. */
  public static final String RUN_KIND = "clients";

  private static final Logger log = LoggerFactory.getLogger(ClientTimingLoader.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Database database;
  private final Clock clock;
  private final BiFunction<Path, ClientLoadSettings, ClientTimingReader> readers;

  public ClientTimingLoader(Database database, Clock clock) {
    this.database = requireNonNull(database, "database is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.readers =
        (file, settings) -> ClientTimingReaders.forFile(file, settings.format(), settings.read());
  }

  /** With another reader lookup by format id; tests use it to fail in the middle of a file. */
  ClientTimingLoader(Database database, Clock clock, Function<String, ClientTimingReader> readers) {
    this.database = requireNonNull(database, "database is null");
    this.clock = requireNonNull(clock, "clock is null");
    requireNonNull(readers, "readers is null");
    this.readers = (file, settings) -> readers.apply(settings.format());
  }

  /**
   * Loads the files of {@code settings} as one run.
   *
   * @throws IllegalArgumentException for an unknown format, files whose format {@code auto} cannot
   *     detect (all of them listed, with every format tried), or a run id already taken
   * @throws java.io.UncheckedIOException naming a file that cannot be read
   * @throws IllegalStateException naming the database when DuckDB fails
   */
  public ClientLoadResult load(ClientLoadSettings settings) {
    return load(settings, false);
  }

  /**
   * Loads the files of {@code settings} as one run; with {@code replace}, a file an earlier run
   * loaded is loaded again, its earlier rows and rejections removed in the same transaction (a file
   * loaded with the wrong options), and a run id already taken is taken over.
   *
   * @throws IllegalArgumentException as {@link #load(ClientLoadSettings)}, and when the files hold
   *     no row at all (nothing to join: the message says why it may be)
   */
  public ClientLoadResult load(ClientLoadSettings settings, boolean replace) {
    Map<Path, ClientTimingReader> fileReaders = readers(settings);
    Instant started = clock.instant();
    try (DuckDBConnection connection = database.newConnection()) {
      connection.setAutoCommit(false);
      try {
        ClientLoadResult result =
            new Load(connection, fileReaders, settings, started, replace).run();
        requireRows(result, fileReaders);
        connection.commit();
        log.info("clients: {}", result.summary());
        return result;
      } catch (SQLException | RuntimeException e) {
        rollback(connection, e);
        throw e;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot load client files into " + database.name() + ": " + e.getMessage(), e);
    }
  }

  /**
   * A load that stores no row while it read files is an error, not a success with nothing in it:
   * the run is rolled back, and the message names what usually causes it.
   */
  private static void requireRows(
      ClientLoadResult result, Map<Path, ClientTimingReader> fileReaders) {
    boolean read = result.files().stream().anyMatch(file -> file.skipped() == null);
    long rows = result.files().stream().mapToLong(ClientLoadResult.FileResult::rows).sum();
    if (!read || rows > 0) {
      return;
    }
    boolean vllmBench =
        fileReaders.values().stream().anyMatch(reader -> "vllm-bench".equals(reader.format()));
    StringBuilder message = new StringBuilder("clients: no row loaded from ");
    message.append(result.files().size() == 1 ? "the file" : "any file");
    result.messages().stream().limit(5).forEach(line -> message.append("\n").append(line));
    message.append("\nhint: check the file's format (--format)");
    if (vllmBench) {
      message.append(
          "; vLLM bench files need --request-id-prefix (the prefix vllm bench serve was given)");
    }
    throw new IllegalArgumentException(message.toString());
  }

  /** Each file's reader; every file that cannot be given one is reported in one message. */
  private Map<Path, ClientTimingReader> readers(ClientLoadSettings settings) {
    Map<Path, ClientTimingReader> fileReaders = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (Path file : settings.files()) {
      if (ProxyAccessLog.recognizes(file)) {
        continue; // not client rows: the proxy's ID map (docs/formats/pd.md#proxy-access-log)
      }
      try {
        fileReaders.put(file, readers.apply(file, settings));
      } catch (IllegalArgumentException e) {
        if (problems.isEmpty() || !problems.contains(e.getMessage())) {
          problems.add(e.getMessage());
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("\n", problems));
    }
    return fileReaders;
  }

  private static void rollback(DuckDBConnection connection, Exception cause) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  /** One load: the transaction's connection and what it has done so far. */
  private static final class Load {
    private final DuckDBConnection connection;
    private final Map<Path, ClientTimingReader> readers;
    private final ClientLoadSettings settings;
    private final Instant started;
    private final boolean replace;
    private final List<String> messages = new ArrayList<>();

    Load(
        DuckDBConnection connection,
        Map<Path, ClientTimingReader> readers,
        ClientLoadSettings settings,
        Instant started,
        boolean replace) {
      this.connection = connection;
      this.readers = readers;
      this.settings = settings;
      this.started = started;
      this.replace = replace;
    }

    ClientLoadResult run() throws SQLException {
      String runId = runId(); // the first statement: it opens the transaction the Appender joins
      Runs.insert(connection, new Runs.Run(runId, RUN_KIND, started, settings.command(), params()));
      List<Planned> plan = plan();
      List<ClientLoadResult.FileResult> results = new ArrayList<>();
      try (TableAppender rows = TableAppender.open(connection, ClientTiming.TABLE);
          TableAppender rejects = TableAppender.open(connection, RejectRow.TABLE)) {
        for (Planned planned : plan) {
          ClientTimingAppender.Target target =
              new ClientTimingAppender.Target(
                  rows, rejects, runId, planned.reader().format(), settings.concurrency(), started);
          results.add(read(planned, new ClientTimingAppender(target, messages)));
        }
      } // closing flushes the Appenders inside the transaction, before run_files and commit
      results.addAll(proxyLogs(runId));
      for (int i = 0; i < results.size(); i++) {
        ClientLoadResult.FileResult result = results.get(i);
        if (result.skipped() == null) {
          String kind = i < plan.size() ? plan.get(i).kind() : ProxyAccessLog.KIND;
          Runs.insertFile(
              connection,
              runId,
              new Runs.RunFile(result.path(), kind, null, result.bytes(), result.sha256()));
        }
      }
      long rows = results.stream().mapToLong(ClientLoadResult.FileResult::rows).sum();
      long rejected = results.stream().mapToLong(ClientLoadResult.FileResult::rejected).sum();
      boolean exceeded =
          rows + rejected > 0 && rejected > settings.maxRejectRatio() * (rows + rejected);
      return new ClientLoadResult(runId, results, messages, exceeded);
    }

    /** Loads the proxy access logs among the files (docs/formats/pd.md#proxy-access-log). */
    private List<ClientLoadResult.FileResult> proxyLogs(String runId) throws SQLException {
      List<ClientLoadResult.FileResult> results = new ArrayList<>();
      for (Path file : settings.files()) {
        if (readers.containsKey(file)) {
          continue;
        }
        FileFingerprint fingerprint = FileFingerprint.of(file);
        String earlier = Runs.runWithFile(connection, fingerprint.sha256(), ProxyAccessLog.KIND);
        if (replace) {
          for (String run : ClientReplacement.removeFile(connection, fingerprint.sha256())) {
            note(file + ": proxy-log: loaded again: the lines run " + run + " loaded removed");
          }
          earlier = null;
        }
        if (earlier != null) {
          note(file + ": proxy-log: file skipped: already loaded by run " + earlier);
          results.add(
              new ClientLoadResult.FileResult(
                  file.toString(),
                  ProxyAccessLog.KIND,
                  fingerprint.bytes(),
                  fingerprint.sha256(),
                  0,
                  0,
                  "already loaded by run " + earlier));
          continue;
        }
        ProxyAccessLog.Read read = ProxyAccessLog.read(file);
        read.rejected().forEach(this::note);
        ProxyAccessLog.insert(connection, runId, file, read.entries());
        results.add(
            new ClientLoadResult.FileResult(
                file.toString(),
                ProxyAccessLog.KIND,
                fingerprint.bytes(),
                fingerprint.sha256(),
                read.entries().size(),
                read.rejected().size(),
                null));
      }
      return results;
    }

    private String runId() throws SQLException {
      String wanted = settings.runId();
      if (wanted == null) {
        return Runs.newId(connection, RUN_KIND, started);
      }
      if (Runs.exists(connection, wanted)) {
        if (!replace) {
          throw new IllegalArgumentException(
              "run '" + wanted + "' already exists; choose another --run-id, or --replace it");
        }
        ClientReplacement.removeRun(connection, wanted);
        note("client: run " + wanted + " replaced: its earlier rows removed");
      }
      return wanted;
    }

    /**
     * Fingerprints every file first, so a file loaded before (or twice now) is skipped up front.
     */
    private List<Planned> plan() throws SQLException {
      List<Planned> plan = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (Path file : settings.files()) {
        ClientTimingReader reader = readers.get(file);
        if (reader == null) {
          continue; // a proxy access log: proxyLogs()
        }
        FileFingerprint fingerprint = FileFingerprint.of(file);
        String earlier = Runs.runWithFile(connection, fingerprint.sha256(), kind(reader));
        if (replace) {
          for (String run : ClientReplacement.removeFile(connection, fingerprint.sha256())) {
            note(file + ": client: loaded again: the rows run " + run + " loaded from it removed");
          }
          earlier = null;
        }
        String skipped =
            earlier != null
                ? "already loaded by run " + earlier
                : seen.add(fingerprint.sha256())
                    ? null
                    : "same content as a file before it in this run";
        if (skipped != null) {
          note(file + ": client: file skipped: " + skipped);
        }
        plan.add(new Planned(file, reader, fingerprint, skipped));
      }
      return plan;
    }

    private ClientLoadResult.FileResult read(Planned planned, ClientTimingAppender sink) {
      if (planned.skipped() == null) {
        long rowsBefore = sink.rows();
        long rejectedBefore = sink.rejected();
        planned.reader().read(planned.file(), sink);
        if (sink.rows() == rowsBefore && sink.rejected() == rejectedBefore) {
          // never a silent empty run (docs/formats/client-files.md#no-rows)
          throw new IllegalArgumentException(
              planned.file()
                  + ": "
                  + planned.reader().format()
                  + ": no per-request rows: "
                  + planned.reader().noRowsReason(planned.file()));
        }
      }
      return new ClientLoadResult.FileResult(
          planned.file().toString(),
          planned.reader().format(),
          planned.fingerprint().bytes(),
          planned.fingerprint().sha256(),
          sink.rows(),
          sink.rejected(),
          planned.skipped());
    }

    private @Nullable String params() {
      Map<String, Object> params = new LinkedHashMap<>();
      params.put("format", settings.format());
      Map<String, String> formats = new LinkedHashMap<>();
      readers.forEach((file, reader) -> formats.put(file.toString(), reader.format()));
      params.put("formats", formats);
      params.put("request_id_prefix", settings.read().requestIdPrefix());
      params.put("concurrency", settings.concurrency());
      if (settings.requestRate() != null) {
        // the run's rate from a tool's aggregate file: the report shows it with the concurrency
        params.put("request_rate", settings.requestRate());
      }
      params.put("max_reject_ratio", settings.maxRejectRatio());
      params.put("files", settings.files().stream().map(Path::toString).toList());
      try {
        return JSON.writeValueAsString(params);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot write run parameters as JSON", e);
      }
    }

    private void note(String message) {
      log.debug("{}", message); // the result's messages are printed by the caller, once
      if (messages.size() < MAX_MESSAGES) {
        messages.add(message);
      }
    }
  }

  private static String kind(ClientTimingReader reader) {
    return "client:" + reader.format();
  }

  private record Planned(
      Path file, ClientTimingReader reader, FileFingerprint fingerprint, @Nullable String skipped) {
    String kind() {
      return ClientTimingLoader.kind(reader);
    }
  }
}
