package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.IngestSummary;
import dev.tokentrace.ingest.Resume;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.sink.LoadedFiles;
import dev.tokentrace.ingest.sink.SinkSettings;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The batch ingest use case: server files through Kafka into the analysis file, exactly once, with
 * the file ledger of {@code run_files} deciding what is loaded, skipped, resumed or replaced
 * (docs/design.md#application-layer, docs/design.md#exactly-once). Says on {@code err} what it
 * skips and resumes, the broker it started and what it loaded, as {@code ingest} always did.
 */
public final class Ingestion {
  /**
   * One batch ingest.
   *
   * @param sources the resolved server files
   * @param ingest Kafka (a configured cluster, or the embedded broker) and parsing limits
   * @param sink the analysis file the sink writes
   * @param replace load files again that are loaded already
   */
  public record BatchRequest(
      List<SourceFile> sources, IngestSettings ingest, SinkSettings sink, boolean replace) {
    public BatchRequest {
      sources = List.copyOf(sources);
      requireNonNull(ingest, "ingest is null");
      requireNonNull(sink, "sink is null");
    }
  }

  private Ingestion() {}

  /**
   * Loads what the ledger says is not loaded yet; returns the run's summary, or null when every
   * file is loaded already (said on {@code err}).
   */
  public static @Nullable IngestSummary batch(BatchRequest request, PrintWriter err) {
    LoadedFiles ledger = new LoadedFiles(request.sink().db());
    List<LoadedFiles.Decision> plan = ledger.plan(request.sources(), request.replace());
    List<LoadedFiles.Decision> toLoad = new ArrayList<>();
    for (LoadedFiles.Decision decision : plan) {
      if (decision.action() != LoadedFiles.Action.LOAD) {
        err.println("ingest: " + decision.file().path() + ": " + decision.why());
      }
      if (decision.action() != LoadedFiles.Action.SKIP) {
        toLoad.add(decision);
      }
    }
    if (toLoad.isEmpty()) {
      err.println("ingest: every file is loaded already; nothing to do -> " + request.sink().db());
      err.flush();
      return null;
    }
    try (Ingest ingest = Ingest.open(request.ingest())) {
      printBroker(ingest, err);
      if (toLoad.stream().anyMatch(d -> d.action() != LoadedFiles.Action.LOAD)) {
        // Records a killed run left in the topics go in first, so that removing the file's rows
        // below removes them too, and a resumed file counts them as stored (a configured broker
        // keeps them; the embedded one has none).
        ingest.sink(request.sink());
      }
      Map<SourceFile, Resume> resume =
          ledger.begin(toLoad, removed -> err.println("ingest: " + removed));
      List<SourceFile> loading = toLoad.stream().map(LoadedFiles.Decision::file).toList();
      IngestSummary summary = ingest.run(loading, resume, request.sink());
      summary.ship().resumed().forEach(note -> err.println("ingest: " + note));
      summary.ship().failedFiles().forEach(problem -> err.println("ingest: " + problem));
      ledger.finish(
          toLoad.stream()
              .filter(d -> !unreadable(d.file(), summary.ship().failedFiles()))
              .toList());
      err.println("ingest: " + summary.describe() + " -> " + request.sink().db());
      return summary;
    }
  }

  /** A file that could not be read stays 'loading': the next run loads it again whole. */
  private static boolean unreadable(SourceFile file, List<String> failed) {
    String prefix = file.path() + ": cannot read:";
    return failed.stream().anyMatch(problem -> problem.startsWith(prefix));
  }

  /** The embedded broker's address and start time, when one was started. */
  public static void printBroker(Ingest ingest, PrintWriter err) {
    if (ingest.broker() != null) {
      err.println(
          "embedded kafka broker on "
              + ingest.bootstrapServers()
              + " (started in "
              + ingest.broker().startupTime().toMillis()
              + " ms)");
      err.flush();
    }
  }
}
