package dev.tokentrace.cli;

import dev.tokentrace.store.lake.LakeCheck;
import dev.tokentrace.store.lake.LakeCompactor;
import dev.tokentrace.store.lake.LakeFile;
import dev.tokentrace.store.lake.LakeSnapshot;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tokentrace compact}: one compaction pass over a lake, or a check of its files. */
@Command(
    name = "compact",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Merge the Parquet lake's small files (per table, partition and hour) into larger ones, and"
          + " delete the inputs of earlier merges once their grace period is over. Safe while"
          + " sinks write and readers query: readers never see a row twice"
          + " (docs/storage.md#compaction). 'sink --lake' compacts its own partitions by itself.",
      "With --check: compare the rows every partition's manifest counts with the rows in its"
          + " files, and list what is left out (uncommitted or overlapping files); exit 1 when a"
          + " file is missing.",
      ""
    })
final class CompactCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--lake", paramLabel = "DIR", required = true, description = "the lake")
  Path lake;

  @Option(
      names = "--grace",
      paramLabel = "DURATION",
      description = "keep merged files' inputs this long for readers that listed them",
      converter = DurationConverter.class,
      defaultValue = "60s")
  Duration grace = LakeCompactor.Settings.DEFAULT_GRACE;

  @Option(
      names = "--min-files",
      paramLabel = "N",
      description =
          "small files of the current hour (of a partition and table) before they are merged;"
              + " an hour that is over is merged from two",
      defaultValue = "" + LakeCompactor.Settings.DEFAULT_MIN_FILES)
  int minFiles = LakeCompactor.Settings.DEFAULT_MIN_FILES;

  @Option(names = "--check", description = "check the files against the manifests; merge nothing")
  boolean check;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (check) {
      return check(err);
    }
    LakeCompactor.Settings settings =
        new LakeCompactor.Settings(minFiles, LakeCompactor.Settings.DEFAULT_TARGET_BYTES, grace);
    LakeCompactor.Result result = LakeCompactor.compact(lake, settings, p -> true, Instant.now());
    err.println("compact: " + result.describe() + " -> " + lake);
    for (LakeFile file : result.overlapping()) {
      err.println("compact: OVERLAPPING, left out of every read: " + file.path());
    }
    err.flush();
    return ExitCodes.OK;
  }

  private int check(PrintWriter err) {
    LakeSnapshot snapshot = LakeSnapshot.scan(lake);
    List<LakeCheck.Problem> problems = LakeCheck.check(lake);
    err.println(
        "compact --check: "
            + snapshot.manifests().size()
            + " partitions, "
            + snapshot.fileCount()
            + " files read, "
            + snapshot.superseded().size()
            + " merged (kept for the grace period), "
            + snapshot.uncommitted().size()
            + " uncommitted, "
            + snapshot.overlapping().size()
            + " overlapping");
    for (LakeFile file : snapshot.overlapping()) {
      err.println("compact --check: OVERLAPPING, left out of every read: " + file.path());
    }
    for (LakeCheck.Problem problem : problems) {
      err.println("compact --check: " + problem.describe());
    }
    err.println(
        problems.isEmpty()
            ? "compact --check: every committed row is in the files"
            : "compact --check: "
                + problems.size()
                + " difference(s); recovery: docs/storage.md#lake-faults-and-recovery");
    err.flush();
    return problems.isEmpty() ? ExitCodes.OK : ExitCodes.INFRASTRUCTURE;
  }
}
