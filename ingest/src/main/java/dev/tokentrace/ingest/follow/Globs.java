package dev.tokentrace.ingest.follow;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Matches a {@link SourceSpec}'s glob against the file system ({@link
 * java.nio.file.FileSystem#getPathMatcher} syntax: {@code *} and {@code ?} within a name, {@code
 * **} across directories, {@code [..]}, {@code {a,b}}). Only regular files match; directories that
 * cannot be read are skipped. The paths keep the pattern's form (relative stays relative), as they
 * become {@code source.path}.
 */
public final class Globs {
  private Globs() {}

  /** The regular files matching {@code pattern} now, sorted. */
  public static List<String> match(String pattern) {
    String[] parts = pattern.split("/", -1);
    int fixed = 0;
    while (fixed < parts.length - 1 && !hasGlob(parts[fixed])) {
      fixed++;
    }
    String base = String.join("/", java.util.Arrays.copyOfRange(parts, 0, fixed));
    if (pattern.startsWith("/") && base.isEmpty()) {
      base = "/";
    }
    boolean deep = pattern.contains("**");
    int depth = deep ? Integer.MAX_VALUE : parts.length - fixed;
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
    Path root = base.isEmpty() ? Path.of(".") : Path.of(base);
    List<String> matches = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return matches;
    }
    try {
      Files.walkFileTree(
          root,
          EnumSet.of(FileVisitOption.FOLLOW_LINKS),
          depth,
          new Collector(root, base, matcher, matches));
    } catch (IOException e) {
      // The visitor never throws; a failing root is the same as no match.
      return matches;
    }
    matches.sort(null);
    return matches;
  }

  private static boolean hasGlob(String part) {
    return new SourceSpec(part.isEmpty() ? "." : part, null).isGlob();
  }

  private static final class Collector extends SimpleFileVisitor<Path> {
    private final Path root;
    private final String base;
    private final PathMatcher matcher;
    private final List<String> matches;

    Collector(Path root, String base, PathMatcher matcher, List<String> matches) {
      this.root = root;
      this.base = base;
      this.matcher = matcher;
      this.matches = matches;
    }

    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
      if (attributes.isRegularFile()) {
        String relative = root.relativize(file).toString();
        String name =
            base.isEmpty()
                ? relative
                : base.endsWith("/") ? base + relative : base + "/" + relative;
        if (matcher.matches(Path.of(name))) {
          matches.add(name);
        }
      }
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path file, @Nullable IOException e) {
      return FileVisitResult.CONTINUE; // an unreadable directory holds no match we could read
    }
  }
}
