package dev.tokentrace.ingest;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.parse.ParseSettings;
import java.nio.file.Path;

/**
 * One log file to ship, with the engine that wrote it (the CLI resolves {@code --engine auto} per
 * file with {@link dev.tokentrace.parse.Parsers#detect}) and the parse settings for it (its
 * instance name, zone and start year). {@code path} as the user gave it becomes {@code source.path}
 * of every event.
 */
public record SourceFile(Path path, Engine engine, ParseSettings parse) {
  public SourceFile {
    requireNonNull(path, "path is null");
    requireNonNull(engine, "engine is null");
    requireNonNull(parse, "parse is null");
  }
}
