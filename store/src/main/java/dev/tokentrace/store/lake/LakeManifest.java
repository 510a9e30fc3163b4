package dev.tokentrace.store.lake;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A partition's manifest, {@code _manifests/<topic>-<partition>.json}: the lake's only record of a
 * partition's progress (docs/storage.md#lake-commit-protocol). Replacing it (temp name, then
 * rename) commits a flush: every data file of that partition whose range ends at or before {@code
 * next_offset} is committed; one ending after it is an orphan of a flush that never committed.
 *
 * @param topic the topic
 * @param partition the partition number
 * @param topicId the topic's Kafka id: a topic deleted and created again under the same name starts
 *     its offsets over, and its files would collide with the old ones
 * @param nextOffset the consumer position after the last committed record: where a sink resumes
 * @param rows rows committed so far per table, over all flushes (what {@code compact --check}
 *     compares the files with, so a file deleted by hand is found)
 * @param committedAt when the last flush committed (ISO-8601, UTC)
 * @param files the data files of the last flush, relative to the lake
 */
public record LakeManifest(
    @JsonProperty("topic") String topic,
    @JsonProperty("partition") int partition,
    @JsonProperty("topic_id") String topicId,
    @JsonProperty("next_offset") long nextOffset,
    @JsonProperty("rows") Map<String, Long> rows,
    @JsonProperty("committed_at") String committedAt,
    @JsonProperty("files") List<String> files) {
  static final String DIRECTORY = "_manifests";

  public LakeManifest {
    requireNonNull(topic, "topic is null");
    requireNonNull(topicId, "topicId is null");
    rows = new TreeMap<>(requireNonNull(rows, "rows is null"));
    requireNonNull(committedAt, "committedAt is null");
    files = List.copyOf(requireNonNull(files, "files is null"));
  }

  public LakePartition lakePartition() {
    return new LakePartition(topic, partition);
  }

  static Path path(Path lake, LakePartition partition) {
    return lake.resolve(DIRECTORY).resolve(partition + ".json");
  }

  /**
   * The partition's manifest, or null when none was committed yet.
   *
   * @throws IllegalStateException naming the file when it cannot be read or parsed
   */
  static @Nullable LakeManifest read(Path lake, LakePartition partition) {
    Path file = path(lake, partition);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    return read(file);
  }

  static LakeManifest read(Path file) {
    try {
      return LakeMarker.JSON.readValue(file.toFile(), LakeManifest.class);
    } catch (IOException e) {
      throw new IllegalStateException(
          file.toAbsolutePath() + ": unreadable lake manifest: " + e.getMessage(), e);
    }
  }

  /** Writes the manifest to a temporary file, syncs it and renames it into place: the commit. */
  void commit(Path lake) throws IOException {
    LakePartition partition = lakePartition();
    byte[] json = LakeMarker.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(this);
    Path temp = LakeDirectories.temp(lake, partition + ".manifest.json");
    try {
      Files.write(temp, json);
      LakeDirectories.moveIntoPlace(temp, path(lake, partition));
    } catch (IOException e) {
      Files.deleteIfExists(temp);
      throw LakeDirectories.writeFailed(temp, e);
    }
  }
}
