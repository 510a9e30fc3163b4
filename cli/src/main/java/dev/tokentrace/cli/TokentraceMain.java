package dev.tokentrace.cli;

import dev.tokentrace.app.BadRequestException;
import dev.tokentrace.ingest.kafka.KafkaUnavailableException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code tokentrace} command. Finds out why an LLM inference server is slow: parses vLLM,
 * SGLang and TensorRT-LLM output into events, streams them through Kafka into DuckDB, joins them
 * with benchmark-client timings and attributes each request's latency.
 */
@Command(
    name = "tokentrace",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Why is the LLM inference server slow? Engine logs -> Kafka -> DuckDB, joined with client"
          + " timings, attributed to network, queueing, prefill and decode.",
      ""
    },
    footer = {
      "",
      "Exit codes: 0 ok, 1 infrastructure failure, 2 usage or config error,"
          + " 3 reject tolerance exceeded, 4 some files of a batch not loaded (or not whole).",
      "Errors read 'path:line: engine: reason'. Start with: tokentrace demo"
    },
    subcommands = {
      DemoCommand.class,
      AnalyzeCommand.class,
      ParseCommand.class,
      ShipCommand.class,
      SinkCommand.class,
      IngestCommand.class,
      ClientsCommand.class,
      CorrelateCommand.class,
      ReportCommand.class,
      SqlCommand.class,
      CompactCommand.class,
      ServeCommand.class,
      SimulateCommand.class,
      LoadgenCommand.class,
      ScrapeCommand.class,
      BrokerCommand.class,
      CommandLine.HelpCommand.class
    })
public final class TokentraceMain {
  private TokentraceMain() {}

  /** Accepted by every command (inherited), before or after the command's name. */
  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description =
          "print stack traces and Kafka's own log messages (by default a failure is one line)")
  void verbose(boolean verbose) {
    if (verbose) {
      System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
      System.setProperty("tokentrace.debug", "true");
    }
  }

  public static void main(String[] args) {
    // before any command: native libraries from the cache, none left in the temp directory
    NativeLibraries.prepare();
    int code = commandLine().execute(args);
    NativeLibraries.awaitBackground();
    System.exit(code);
  }

  /** The configured command line; tests call {@code execute} on it without exiting. */
  static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new TokentraceMain());
    commandLine.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
    commandLine.getCommandSpec().exitCodeOnExecutionException(ExitCodes.INFRASTRUCTURE);
    commandLine.setExecutionExceptionHandler(TokentraceMain::handle);
    commandLine.setParameterExceptionHandler(TokentraceMain::invalidInput);
    return commandLine;
  }

  /**
   * A command line picocli cannot parse (unknown option or command, missing or bad value): one line
   * naming the problem, the nearest known names when there are any ("did you mean"), and where the
   * help is; not the whole usage text. A mistyped option is named even when picocli would first
   * complain about the required option it was meant to be. Exit 2, for every command.
   */
  static int invalidInput(CommandLine.ParameterException e, String[] args) {
    CommandLine commandLine = e.getCommandLine();
    PrintWriter err = commandLine.getErr();
    String name = commandLine.getCommandSpec().qualifiedName();
    String message = e.getMessage();
    List<String> unknown =
        e instanceof CommandLine.UnmatchedArgumentException
            ? ((CommandLine.UnmatchedArgumentException) e).getUnmatched()
            : unknownOptions(commandLine, args);
    if (!(e instanceof CommandLine.UnmatchedArgumentException) && !unknown.isEmpty()) {
      message = "Unknown option: '" + unknown.get(0) + "'";
    }
    StringBuilder line = new StringBuilder(name).append(": ").append(message);
    if (!unknown.isEmpty()) {
      String typed = unknown.get(0).split("=", 2)[0];
      List<String> suggestions =
          new ArrayList<>(
              new CommandLine.UnmatchedArgumentException(commandLine, List.of(typed))
                  .getSuggestions());
      // nearest first: the longest common prefix with what was typed
      suggestions.sort(Comparator.comparingInt(known -> -commonPrefix(known, typed)));
      if (!suggestions.isEmpty()) {
        line.append("; did you mean ")
            .append(String.join(" or ", suggestions.subList(0, Math.min(3, suggestions.size()))))
            .append('?');
      }
    }
    line.append(" (see '").append(name).append(" --help')");
    err.println(line);
    err.flush();
    return ExitCodes.USAGE;
  }

  /** The arguments that look like options but that neither the command nor its parents know. */
  private static List<String> unknownOptions(CommandLine commandLine, String[] args) {
    List<String> unknown = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals("--")) {
        break;
      }
      // long options, and single short ones; clustered short options (-abc) are left to picocli
      if (!arg.matches("--[A-Za-z].*|-[A-Za-z]")) {
        continue;
      }
      String option = arg.split("=", 2)[0];
      boolean known = false;
      for (CommandLine c = commandLine; c != null && !known; c = c.getParent()) {
        known = c.getCommandSpec().findOption(option) != null;
      }
      if (!known) {
        unknown.add(option);
      }
    }
    return unknown;
  }

  private static int commonPrefix(String a, String b) {
    int n = 0;
    while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
      n++;
    }
    return n;
  }

  private static int handle(Exception e, CommandLine commandLine, CommandLine.ParseResult result) {
    return failed(
        commandLine.getCommandName(),
        commandLine.getCommandSpec().qualifiedName(),
        e,
        commandLine.getErr());
  }

  /**
   * What a command that threw prints, and its exit code: every problem of bad usage and where the
   * help is (exit 2), or the failure's message chain (exit 1). {@code analyze} prints its steps'
   * failures the same way.
   *
   * @param name the command's name, e.g. {@code ingest}
   * @param qualifiedName with its parents, e.g. {@code tokentrace ingest}
   */
  static int failed(String name, String qualifiedName, Exception e, PrintWriter err) {
    if (e instanceof BadRequestException || e instanceof IllegalArgumentException) {
      // services report bad usage (unknown query, bad option value) as IllegalArgumentException
      List<String> problems =
          e instanceof BadRequestException
              ? ((BadRequestException) e).problems()
              : List.of(e.getMessage());
      for (String problem : problems) {
        err.println(name + ": " + problem);
      }
      err.println("Try '" + qualifiedName + " --help'.");
      err.flush();
      return ExitCodes.USAGE;
    }
    if (e instanceof KafkaUnavailableException && !Boolean.getBoolean("tokentrace.debug")) {
      // an unreachable cluster is one line: which servers, how long, what became of the data
      err.println(name + ": " + e.getMessage());
      err.flush();
      return ExitCodes.INFRASTRUCTURE;
    }
    err.println(name + ": " + describe(e));
    if (Boolean.getBoolean("tokentrace.debug")) {
      e.printStackTrace(err);
    } else {
      err.println("(--verbose prints the stack trace)");
    }
    err.flush();
    return ExitCodes.INFRASTRUCTURE;
  }

  /** The message chain, outermost first, so the resource and the root cause both show. */
  static String describe(Throwable e) {
    StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      String message = cause.getMessage();
      if (message != null && text.indexOf(message) < 0) {
        text.append(": ").append(message);
      }
    }
    return text.toString();
  }
}
