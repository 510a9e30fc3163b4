package dev.tokentrace.ingest.follow;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.ingest.tail.FileIdentity;
import dev.tokentrace.ingest.tail.HeadPrint;
import dev.tokentrace.ingest.tail.TailPosition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A shipper's checkpoint: for every file it follows, where reading resumes. Committed to {@code
 * <prefix>.checkpoints} in the same transaction as the events of the lines before those positions.
 * JSON, so an operator can read it with any Kafka tool. Immutable.
 *
 * @param version {@value #VERSION}; a newer version is refused rather than misread
 * @param shipper the shipper id (also the record key)
 * @param files one entry per file
 * @param committedMs when it was written (epoch ms; absent in checkpoints of older versions): a
 *     rotated generation modified later was written while the shipper was down
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record Checkpoint(
    @JsonProperty("version") int version,
    @JsonProperty("shipper") String shipper,
    @JsonProperty("files") List<FileCheckpoint> files,
    @JsonProperty("committed_ms") @Nullable Long committedMs) {
  static final int VERSION = 1;

  private static final ObjectMapper MAPPER =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  Checkpoint {
    requireNonNull(shipper, "shipper is null");
    files = List.copyOf(requireNonNull(files, "files is null"));
  }

  Checkpoint(int version, String shipper, List<FileCheckpoint> files) {
    this(version, shipper, files, null);
  }

  byte[] toJson() {
    try {
      return MAPPER.writeValueAsBytes(this);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the checkpoint of " + shipper, e);
    }
  }

  /**
   * @throws IllegalStateException when the record is not a checkpoint this version can read
   */
  static Checkpoint fromJson(String shipper, byte[] json) {
    Checkpoint checkpoint;
    try {
      checkpoint = MAPPER.readValue(json, Checkpoint.class);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "the checkpoint of shipper '"
              + shipper
              + "' in kafka is unreadable: "
              + e.getMessage()
              + "; start over with another --shipper-id",
          e);
    }
    if (checkpoint.version() != VERSION) {
      throw new IllegalStateException(
          "the checkpoint of shipper '"
              + shipper
              + "' has version "
              + checkpoint.version()
              + ", this tokentrace reads version "
              + VERSION);
    }
    return checkpoint;
  }

  /**
   * Where one file resumes.
   *
   * @param path the file's name as it was followed (its events' {@code source.path})
   * @param instance the instance its events carry
   * @param identity {@link FileIdentity} of the file, so a renamed file is found again
   * @param headLength length of the {@link HeadPrint} of its first bytes
   * @param headCrc checksum of the {@link HeadPrint}
   * @param offset byte offset of the first line not yet shipped
   * @param line number of that line
   * @param engine the file's engine id once detected, or {@code client:<format>} for a client or
   *     gateway file (docs/follow.md#client-files)
   * @param clientState what the file's reader needs to resume: a client CSV's header line, or a GPU
   *     telemetry file's headers (docs/formats/gpu.md#following-across-restarts); the name is kept
   *     from when only client files had one
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record FileCheckpoint(
      @JsonProperty("path") String path,
      @JsonProperty("instance") String instance,
      @JsonProperty("identity") String identity,
      @JsonProperty("head_length") int headLength,
      @JsonProperty("head_crc") long headCrc,
      @JsonProperty("offset") long offset,
      @JsonProperty("line") long line,
      @JsonProperty("engine") @Nullable String engine,
      @JsonProperty("client_state") @Nullable String clientState) {
    /** The {@link #engine} prefix of client and gateway files. */
    static final String CLIENT = "client:";

    FileCheckpoint {
      requireNonNull(path, "path is null");
      requireNonNull(instance, "instance is null");
      requireNonNull(identity, "identity is null");
    }

    /** An engine log's entry (no client state). */
    FileCheckpoint(
        String path,
        String instance,
        String identity,
        int headLength,
        long headCrc,
        long offset,
        long line,
        @Nullable String engine) {
      this(path, instance, identity, headLength, headCrc, offset, line, engine, null);
    }

    /** The client format of a client or gateway file's entry, or null. */
    @Nullable String clientFormat() {
      return engine != null && engine.startsWith(CLIENT) ? engine.substring(CLIENT.length()) : null;
    }

    FileIdentity fileIdentity() {
      return new FileIdentity(identity);
    }

    HeadPrint head() {
      return new HeadPrint(headLength, headCrc);
    }

    TailPosition position() {
      return new TailPosition(offset, line);
    }
  }
}
