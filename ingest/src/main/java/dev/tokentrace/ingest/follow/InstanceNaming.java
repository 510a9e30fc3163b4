package dev.tokentrace.ingest.follow;

import dev.tokentrace.event.InstanceNames;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * How a followed file's {@code instance} is named when its spec does not name it ({@code
 * NAME=PATH}): one name for all files, or one taken from each file's directory or file name, so a
 * glob over several servers' logs tags each server by itself.
 */
public enum InstanceNaming {
  /** {@code --instance} for every file. */
  FIXED,
  /** The file's directory name: {@code /var/log/vllm-0/server.log} is {@code vllm-0}. */
  DIR,
  /** The file name up to its first dot: {@code /var/log/vllm-0.log.1} is {@code vllm-0}. */
  FILE;

  public static final String DOC =
      "where a file's instance name comes from when the FILE argument does not give one"
          + " (NAME=FILE): fixed (--instance for all), dir (the file's directory name, e.g."
          + " /logs/vllm-0/server.log -> vllm-0) or file (the file name up to its first dot, e.g."
          + " /logs/vllm-0.log -> vllm-0); characters an instance name may not hold become '_'";

  /** The instance of {@code path}; {@code fallback} when the path has no usable name here. */
  public String instanceOf(Path path, String fallback) {
    String name = this == DIR ? directoryName(path) : this == FILE ? fileStem(path) : null;
    // a directory or file name may hold anything: made to fit the instance-name rule
    return name == null || name.isBlank() ? fallback : InstanceNames.fit(name);
  }

  private static @Nullable String directoryName(Path path) {
    Path parent = path.toAbsolutePath().normalize().getParent();
    Path name = parent == null ? null : parent.getFileName();
    return name == null ? null : name.toString();
  }

  private static @Nullable String fileStem(Path path) {
    Path name = path.getFileName();
    if (name == null) {
      return null;
    }
    String file = name.toString();
    int dot = file.indexOf('.', 1);
    return dot < 0 ? file : file.substring(0, dot);
  }
}
