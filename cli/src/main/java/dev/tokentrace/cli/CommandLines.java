package dev.tokentrace.cli;

import dev.tokentrace.app.Analysis;
import picocli.CommandLine.Model.CommandSpec;

/** The command line as typed, recorded in the {@code runs} table for reproducibility. */
final class CommandLines {
  private CommandLines() {}

  static String of(CommandSpec spec) {
    // originalArgs are all the arguments the root command got, the subcommand's name among them
    StringBuilder text = new StringBuilder(spec.root().name());
    for (String arg : spec.commandLine().getParseResult().originalArgs()) {
      text.append(' ').append(quoted(arg));
    }
    return text.toString();
  }

  private static String quoted(String arg) {
    return Analysis.quoted(arg);
  }
}
