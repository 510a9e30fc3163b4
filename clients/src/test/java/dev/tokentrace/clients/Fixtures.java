package dev.tokentrace.clients;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The real tool output in {@code shared/fixtures} (see its SOURCES.md), next to the project root:
 * {@code ../shared/fixtures} from the checkout, looked up from the module directory upwards so that
 * worktrees find it too. Never copied into the project; tests skip where it is absent.
 */
public final class Fixtures {
  private Fixtures() {}

  public static Optional<Path> dir() {
    String configured = System.getProperty("tokentrace.fixtures");
    if (configured != null) {
      Path path = Path.of(configured);
      return Files.isDirectory(path) ? Optional.of(path) : Optional.empty();
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared").resolve("fixtures");
      if (Files.isDirectory(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** The fixture file, or a skipped test when the folder or the file is absent. */
  public static Path file(String relative) {
    Optional<Path> dir = dir();
    assumeTrue(dir.isPresent(), "shared/fixtures not found: fixture tests skipped");
    Path file = dir.get().resolve(relative);
    assumeTrue(Files.isRegularFile(file), "fixture " + relative + " not found: skipped");
    return file;
  }
}
