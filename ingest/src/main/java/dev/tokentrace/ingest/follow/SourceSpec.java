package dev.tokentrace.ingest.follow;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.InstanceNames;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One followed file or glob as given on the command line, {@code [NAME=]PATH}, with the instance
 * name it gives its files (null: from {@link InstanceNaming} or {@code --instance}). A glob ({@code
 * *}, {@code ?}, {@code [..]}, {@code {a,b}}, {@code **} across directories) is matched again while
 * following, so files created later are picked up. Immutable.
 */
public record SourceSpec(String pattern, @Nullable String instance) {
  /**
   * What a {@code NAME=} prefix may look like (so {@code ./a=b.log} stays a path): any run of name
   * characters, then checked against {@link InstanceNames} (so a name too long is an error, not a
   * path).
   */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]*");

  private static final String GLOB_CHARS = "*?[{";

  public SourceSpec {
    requireNonNull(pattern, "pattern is null");
    if (pattern.isBlank()) {
      throw new IllegalArgumentException("pattern is blank");
    }
    if (instance != null) {
      InstanceNames.check(instance);
    }
  }

  /** Reads {@code NAME=PATH} or {@code PATH}. */
  public static SourceSpec parse(String argument) {
    int equals = argument.indexOf('=');
    if (equals > 0 && NAME.matcher(argument.substring(0, equals)).matches()) {
      return new SourceSpec(argument.substring(equals + 1), argument.substring(0, equals));
    }
    return new SourceSpec(argument, null);
  }

  /** True when the pattern has glob characters and is matched against the file system. */
  public boolean isGlob() {
    for (int i = 0; i < pattern.length(); i++) {
      if (GLOB_CHARS.indexOf(pattern.charAt(i)) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** The files this spec names now: the glob's matches (regular files, sorted), or its path. */
  public List<String> files() {
    return isGlob() ? Globs.match(pattern) : List.of(pattern);
  }

  /** The instance of a file this spec matched: its own, else by {@code naming}, else fallback. */
  public String instanceOf(String file, InstanceNaming naming, String fallback) {
    return instance != null ? instance : naming.instanceOf(Path.of(file), fallback);
  }

  /** True when {@code location} is this spec's path or matches its glob. */
  public boolean matches(String location) {
    if (!isGlob()) {
      return pattern.equals(location);
    }
    return FileSystems.getDefault().getPathMatcher("glob:" + pattern).matches(Path.of(location));
  }

  @Override
  public String toString() {
    return instance == null ? pattern : instance + "=" + pattern;
  }
}
