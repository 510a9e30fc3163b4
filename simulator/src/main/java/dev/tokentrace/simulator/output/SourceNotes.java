package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.SimulationSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** {@code SOURCE.md}: what generated a scenario directory, so anyone can regenerate it. */
final class SourceNotes {
  private SourceNotes() {}

  static void write(
      Path path,
      SimulationSettings simulation,
      OutputSettings output,
      String command,
      Map<String, String> parameters,
      List<Path> files) {
    StringBuilder text = new StringBuilder();
    EngineFormat format = output.format();
    text.append("# Simulated ").append(format.engine().id()).append(' ');
    text.append(format.version()).append(" scenario\n\n");
    text.append(
        "Written by `tokentrace simulate` (the discrete-event model in `dev.tokentrace.simulator`),");
    text.append(" not captured from a real server. Lines are composed from the format strings in");
    text.append(" `docs/formats/")
        .append(format.engine().id())
        .append(".md` with simulated values.");
    text.append(" Same command and seed give byte-identical files.\n\n");
    text.append("- command: `").append(command).append("`\n");
    text.append("- seed: ").append(simulation.seed()).append('\n');
    text.append("- engine: ").append(format.engine().id()).append(", format generation ");
    text.append(format.version()).append('\n');
    text.append("- start: ").append(output.start()).append(", log time zone: ");
    text.append(output.zone().getId()).append('\n');
    text.append("- equivalent launch: `")
        .append(Launches.command(simulation, output))
        .append("`\n\n");
    text.append("## Files\n\n| file | content |\n|---|---|\n");
    Path dir = path.getParent();
    for (Path file : files) {
      String name =
          dir == null ? file.toString() : dir.relativize(file).toString().replace('\\', '/');
      text.append("| `")
          .append(name)
          .append("` | ")
          .append(Launches.describe(name, output))
          .append(" |\n");
    }
    text.append("\n## Parameters\n\n| parameter | value |\n|---|---|\n");
    parameters.forEach(
        (name, value) ->
            text.append("| `").append(name).append("` | `").append(value).append("` |\n"));
    text.append('\n').append(Launches.conventions());
    try {
      Files.writeString(path, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path, e);
    }
  }
}
