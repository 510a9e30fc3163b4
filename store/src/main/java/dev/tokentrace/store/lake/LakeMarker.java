package dev.tokentrace.store.lake;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The file {@value #FILE} at the lake's root: says the directory is a tokentrace lake, of which
 * format version, fed from which topic prefix by which consumer group
 * (docs/storage.md#lake-marker). Created once, never rewritten; every writer and reader checks it.
 *
 * @param format always {@value #FORMAT}
 * @param version the layout version, {@value #VERSION}
 * @param topicPrefix the topics' prefix ({@code <prefix>.events}, {@code <prefix>.rejects})
 * @param group the Kafka consumer group of the sinks that write it
 */
public record LakeMarker(
    @JsonProperty("format") String format,
    @JsonProperty("version") int version,
    @JsonProperty("topic_prefix") String topicPrefix,
    @JsonProperty("group") String group) {
  public static final String FILE = "_tokentrace_lake.json";
  public static final String FORMAT = "tokentrace-lake";
  public static final int VERSION = 1;

  static final ObjectMapper JSON = new ObjectMapper();

  public LakeMarker {
    requireNonNull(format, "format is null");
    requireNonNull(topicPrefix, "topicPrefix is null");
    requireNonNull(group, "group is null");
  }

  /** A marker of this format version. */
  public static LakeMarker of(String topicPrefix, String group) {
    return new LakeMarker(FORMAT, VERSION, topicPrefix, group);
  }

  /**
   * The marker of an existing lake.
   *
   * @throws IllegalArgumentException naming the directory when it is missing, is not a tokentrace
   *     lake, or is one of another format version
   */
  public static LakeMarker read(Path dir) {
    Path file = dir.resolve(FILE);
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(
          "no lake at " + dir.toAbsolutePath() + ": give the --lake a sink created");
    }
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          dir.toAbsolutePath()
              + " is not a tokentrace lake (no "
              + FILE
              + "): give the --lake a sink created");
    }
    LakeMarker marker;
    try {
      marker = JSON.readValue(file.toFile(), LakeMarker.class);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          file.toAbsolutePath() + ": not a tokentrace lake marker: " + e.getMessage(), e);
    }
    if (!FORMAT.equals(marker.format()) || marker.version() != VERSION) {
      throw new IllegalArgumentException(
          file.toAbsolutePath()
              + ": a lake of format "
              + marker.format()
              + " version "
              + marker.version()
              + "; this tokentrace reads "
              + FORMAT
              + " version "
              + VERSION);
    }
    return marker;
  }

  /**
   * Creates the lake at {@code dir} with this marker, or checks the one there: the directory must
   * be missing, empty, or a lake of the same topic prefix and group. Several sinks starting at once
   * may call this together: the marker is linked into place, which fails if another won.
   *
   * @throws IllegalArgumentException naming the directory and the problem: a non-empty directory
   *     that is not a lake, another topic prefix, another group
   */
  public LakeMarker createOrCheck(Path dir) {
    Path file = dir.resolve(FILE);
    try {
      Files.createDirectories(dir);
      if (!Files.exists(file)) {
        if (!isEmpty(dir)) {
          throw new IllegalArgumentException(
              dir.toAbsolutePath()
                  + " is not empty and not a tokentrace lake (no "
                  + FILE
                  + "): give an empty or new directory");
        }
        Path temp = Files.createTempFile(dir, ".lake-", ".tmp");
        try {
          JSON.writerWithDefaultPrettyPrinter().writeValue(temp.toFile(), this);
          Files.createLink(file, temp);
        } catch (FileAlreadyExistsException e) {
          // another sink created it first: checked below like any existing marker
        } finally {
          Files.deleteIfExists(temp);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("lake " + dir.toAbsolutePath() + ": cannot create it", e);
    }
    LakeMarker existing = read(dir);
    if (!existing.topicPrefix().equals(topicPrefix)) {
      throw new IllegalArgumentException(
          "lake "
              + dir.toAbsolutePath()
              + " holds topic prefix '"
              + existing.topicPrefix()
              + "', not '"
              + topicPrefix
              + "': one lake per topic prefix");
    }
    if (!existing.group().equals(group)) {
      throw new IllegalArgumentException(
          "lake "
              + dir.toAbsolutePath()
              + " is written by consumer group '"
              + existing.group()
              + "', not '"
              + group
              + "': sinks of two groups would each store every event; use --group "
              + existing.group()
              + " or another lake");
    }
    return existing;
  }

  private static boolean isEmpty(Path dir) throws IOException {
    // another sink's marker being written (".lake-…tmp") does not count
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.noneMatch(entry -> !entry.getFileName().toString().startsWith(".lake-"));
    }
  }
}
