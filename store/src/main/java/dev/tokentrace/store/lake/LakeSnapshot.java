package dev.tokentrace.store.lake;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a lake holds at one moment (docs/storage.md#what-a-reader-sees): each partition's manifest,
 * and per table the files a reader uses: committed (the range ends at or before the partition's
 * {@code next_offset}) and non-overlapping, chosen by offset range. Per table and partition, files
 * are taken in order of their first offset, the widest first; a file whose range lies within one
 * already taken is superseded (a compaction's inputs, kept for a grace period), so a reader never
 * counts a row twice while compaction runs. A file that overlaps a taken one without lying within
 * it cannot come from a correct writer: it is left out and listed in {@link #overlapping()}.
 */
public final class LakeSnapshot {
  private final Path lake;
  private final Map<LakePartition, LakeManifest> manifests;
  private final Map<String, List<LakeFile>> selected;
  private final List<LakeFile> superseded;
  private final List<LakeFile> uncommitted;
  private final List<LakeFile> overlapping;

  private LakeSnapshot(
      Path lake,
      Map<LakePartition, LakeManifest> manifests,
      Map<String, List<LakeFile>> selected,
      List<LakeFile> superseded,
      List<LakeFile> uncommitted,
      List<LakeFile> overlapping) {
    this.lake = lake;
    this.manifests = manifests;
    this.selected = selected;
    this.superseded = superseded;
    this.uncommitted = uncommitted;
    this.overlapping = overlapping;
  }

  /**
   * Scans the lake: manifests first, then the data files, so a file committed between the two reads
   * is seen as committed only if its manifest was (never the other way round).
   *
   * @throws IllegalArgumentException when {@code lake} is not a tokentrace lake
   */
  public static LakeSnapshot scan(Path lake) {
    LakeMarker.read(lake);
    Map<LakePartition, LakeManifest> manifests = readManifests(lake);
    Map<String, List<LakeFile>> selected = new LinkedHashMap<>();
    List<LakeFile> superseded = new ArrayList<>();
    List<LakeFile> uncommitted = new ArrayList<>();
    List<LakeFile> overlapping = new ArrayList<>();
    for (var table : LakeTables.ALL) {
      Map<LakePartition, List<LakeFile>> byPartition = new TreeMap<>();
      for (LakeFile file : dataFiles(lake, table.name())) {
        LakeManifest manifest = manifests.get(file.partition());
        if (manifest == null || file.end() > manifest.nextOffset()) {
          uncommitted.add(file);
        } else {
          byPartition.computeIfAbsent(file.partition(), key -> new ArrayList<>()).add(file);
        }
      }
      List<LakeFile> chosen = new ArrayList<>();
      for (List<LakeFile> files : byPartition.values()) {
        files.sort(
            Comparator.comparingLong(LakeFile::first)
                .thenComparing(Comparator.comparingLong(LakeFile::end).reversed()));
        long takenEnd = Long.MIN_VALUE;
        for (LakeFile file : files) {
          if (file.first() >= takenEnd) {
            chosen.add(file);
            takenEnd = file.end();
          } else if (file.end() <= takenEnd) {
            superseded.add(file);
          } else {
            overlapping.add(file);
          }
        }
      }
      selected.put(table.name(), List.copyOf(chosen));
    }
    return new LakeSnapshot(
        lake,
        Map.copyOf(manifests),
        selected,
        List.copyOf(superseded),
        List.copyOf(uncommitted),
        List.copyOf(overlapping));
  }

  /** The lake directory. */
  public Path lake() {
    return lake;
  }

  /** The committed manifest of every partition that has one. */
  public Map<LakePartition, LakeManifest> manifests() {
    return manifests;
  }

  /** The files a reader of {@code table} uses (empty for a table without files). */
  public List<LakeFile> files(String table) {
    return selected.getOrDefault(table, List.of());
  }

  /** Every table's files a reader uses. */
  public Map<String, List<LakeFile>> selected() {
    return selected;
  }

  /** Committed files within a chosen one's range: a compaction's inputs, deleted after a grace. */
  public List<LakeFile> superseded() {
    return superseded;
  }

  /** Files past their partition's committed offset: being written, or left by a crashed writer. */
  public List<LakeFile> uncommitted() {
    return uncommitted;
  }

  /** Committed files overlapping a chosen one without lying within it: left out, an anomaly. */
  public List<LakeFile> overlapping() {
    return overlapping;
  }

  /** Files a reader uses, over all tables. */
  public int fileCount() {
    return selected.values().stream().mapToInt(List::size).sum();
  }

  static Map<LakePartition, LakeManifest> readManifests(Path lake) {
    Path dir = lake.resolve(LakeManifest.DIRECTORY);
    Map<LakePartition, LakeManifest> manifests = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return manifests;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path file : (Iterable<Path>) entries::iterator) {
        if (file.getFileName().toString().endsWith(".json")) {
          LakeManifest manifest = LakeManifest.read(file);
          manifests.put(manifest.lakePartition(), manifest);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("lake " + lake + ": cannot list " + dir, e);
    }
    return manifests;
  }

  /**
   * The data files under {@code <table>/}, at any depth. A file or directory removed while listing
   * (a compaction deleting merged inputs) is skipped, not an error.
   */
  static List<LakeFile> dataFiles(Path lake, String table) {
    Path dir = lake.resolve(table);
    List<LakeFile> files = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    try {
      Files.walkFileTree(
          dir,
          java.util.Set.of(),
          3,
          new java.nio.file.SimpleFileVisitor<Path>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(
                Path path, BasicFileAttributes attributes) {
              if (attributes.isRegularFile()
                  && path.getFileName().toString().endsWith(".parquet")) {
                LakeFile file =
                    LakeFile.parse(
                        table,
                        path.toAbsolutePath(),
                        attributes.size(),
                        attributes.lastModifiedTime().toInstant());
                if (file != null) {
                  files.add(file);
                }
              }
              return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path path, IOException e)
                throws IOException {
              if (e instanceof java.nio.file.NoSuchFileException) {
                return java.nio.file.FileVisitResult.CONTINUE; // removed since it was listed
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("lake " + lake + ": cannot list " + dir, e);
    }
    return files;
  }
}
