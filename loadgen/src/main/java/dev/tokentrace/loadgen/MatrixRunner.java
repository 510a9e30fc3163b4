package dev.tokentrace.loadgen;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a {@link Matrix} sweep into one client file ({@link ClientTimingsFile} with the matrix
 * columns, docs/formats/client-files.md#matrix-columns): first the warm-up requests (marked, cell
 * {@code warm-up}, at the first cell's lengths and concurrency), then every cell in turn with a
 * fixed concurrency, {@code rounds × concurrency} requests each, the cell recorded per request.
 * Request IDs are the prefix, the cell ({@code p512-o64-c4-}) and an index. Stops at the first cell
 * that reached nothing.
 */
public final class MatrixRunner {
  private final LoadSettings base;
  private final Matrix matrix;

  /** {@code base}: URL, endpoint, model, ID prefix, timeout, output files and warm-up count. */
  public MatrixRunner(LoadSettings base, Matrix matrix) {
    this.base = requireNonNull(base, "base is null");
    this.matrix = requireNonNull(matrix, "matrix is null");
  }

  /** One cell's result. */
  public record CellSummary(Matrix.Cell cell, LoadSummary summary) {}

  /**
   * Runs the warm-up and every cell; returns each cell's summary in order (fewer when the server
   * was unreachable).
   *
   * @throws java.io.UncheckedIOException naming the output file that could not be written
   */
  public List<CellSummary> run() throws InterruptedException {
    List<CellSummary> done = new ArrayList<>();
    List<Matrix.Cell> cells = matrix.cells();
    try (ClientTimingsFile csv = ClientTimingsFile.create(base.out(), true);
        ItlCsv itls = ItlCsv.create(base.itlOut())) {
      Matrix.Cell first = cells.get(0);
      if (base.warmup() > 0) {
        LoadSummary warm =
            new LoadRunner(settings(first, 0, base.warmup(), base.idPrefix() + "warmup-"))
                .run(csv, itls, columns(first));
        if (warm.unreachable()) {
          done.add(new CellSummary(first, warm));
          return done;
        }
      }
      for (Matrix.Cell cell : cells) {
        long requests = (long) matrix.rounds() * cell.concurrency();
        LoadSummary summary =
            new LoadRunner(settings(cell, requests, 0, base.idPrefix() + cell.idPart() + "-"))
                .run(csv, itls, columns(cell));
        done.add(new CellSummary(cell, summary));
        if (summary.unreachable()) {
          break;
        }
      }
    }
    return done;
  }

  private static ClientTimingsFile.Columns columns(Matrix.Cell cell) {
    return new ClientTimingsFile.Columns(cell.promptTokens(), cell.concurrency(), cell);
  }

  private LoadSettings settings(Matrix.Cell cell, long requests, int warmup, String prefix) {
    return new LoadSettings(
        base.url(),
        base.endpoint(),
        base.model(),
        cell.promptTokens(),
        cell.maxTokens(),
        cell.concurrency(),
        null,
        base.arrival(),
        requests,
        null,
        warmup,
        prefix,
        base.sglangRid(),
        base.timeout(),
        base.seed(),
        base.out(),
        base.itlOut());
  }
}
