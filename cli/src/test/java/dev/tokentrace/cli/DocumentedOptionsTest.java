package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The README and docs name only options the commands have: every {@code --option} in README.md and
 * docs/*.md is an option of some command (or another tool's flag listed below), and every option on
 * a line that runs {@code tokentrace COMMAND} belongs to that command.
 */
final class DocumentedOptionsTest {
  private static final Path ROOT = Path.of("..");

  /** Flags of other tools that the docs name: the engines, kubectl, nvidia-smi, our scripts. */
  private static final Set<String> OTHER_TOOLS =
      Set.of(
          "--enable-request-id-headers", // vLLM serve
          "--enable-log-requests", // vLLM serve
          "--otlp-traces-endpoint", // vLLM serve
          "--api-key", // vLLM serve, SGLang server (a secret: docs/privacy.md#secrets)
          "--hf-token", // vLLM serve
          "--collect-detailed-traces", // vLLM serve
          "--kv-transfer-config", // vLLM serve (prefill/decode disaggregation)
          "--save-detailed", // vllm bench serve
          "--log-requests", // SGLang server
          "--log-requests-level", // SGLang server
          "--enable-metrics", // SGLang server
          "--export-metrics-to-file", // SGLang server
          "--export-metrics-to-file-dir", // SGLang server
          "--enable-request-time-stats-logging", // SGLang server
          "--disaggregation-mode", // SGLang server, prefill/decode (docs/formats/pd.md)
          "--pd-disaggregation", // SGLang router, prefill/decode (docs/formats/pd.md)
          "--config", // otelcol, trtllm-serve
          "--extra_llm_api_options", // trtllm-serve
          "--prefix", // kubectl logs
          "--timestamps", // kubectl logs
          "--query-gpu", // nvidia-smi
          "--query-compute-apps", // nvidia-smi
          "--events", // bench/ingest.sh
          "--sizes", // bench/correlate.sh
          "--hosts", // bench/fleet.sh
          "--ships", // bench/fleet.sh
          "--sinks", // bench/fleet.sh
          "--master", // spark-correlate (the spark jar, not a cli command: docs/scale.md)
          "--shuffle-partitions", // spark-correlate
          "--class", // spark-submit
          "--jars", // spark-submit
          "--conf", // spark-submit
          "--deploy-mode", // spark-submit
          "--executor-memory", // spark-submit
          "--num-executors", // spark-submit
          "--total-executor-cores", // spark-submit
          "--executor-cores", // spark-submit
          "--driver-memory", // spark-submit
          "--add-opens", // java
          "--add-modules", // java (Spark's JVM options, docs/scale.md#jvm-options)
          "--enable-native-access", // java
          "--sun-misc-unsafe-memory-access"); // java

  private static final Pattern OPTION =
      Pattern.compile("(?<![A-Za-z0-9_-])--[a-z][a-z0-9_-]*[a-z0-9]");
  private static final Pattern RUN = Pattern.compile("tokentrace ([a-z]+)\\b");

  @Test
  void everyDocumentedOptionExists() throws IOException {
    CommandLine main = TokentraceMain.commandLine();
    Set<String> known = new HashSet<>(OTHER_TOOLS);
    collect(main, known);
    Set<String> unknown = new TreeSet<>();
    for (Path doc : docs()) {
      List<String> lines = Files.readAllLines(doc);
      for (int i = 0; i < lines.size(); i++) {
        Matcher option = OPTION.matcher(lines.get(i));
        while (option.find()) {
          if (!known.contains(option.group())) {
            unknown.add(ROOT.relativize(doc) + ":" + (i + 1) + ": " + option.group());
          }
        }
      }
    }
    assertThat(unknown).as("options named in the docs that no command has").isEmpty();
  }

  @Test
  void everyOptionOnACommandLineBelongsToItsCommand() throws IOException {
    Map<String, CommandLine> commands = TokentraceMain.commandLine().getSubcommands();
    Set<String> wrong = new TreeSet<>();
    for (Path doc : docs()) {
      List<String> lines = Files.readAllLines(doc);
      for (int i = 0; i < lines.size(); i++) {
        Matcher run = RUN.matcher(lines.get(i));
        if (!run.find() || !commands.containsKey(run.group(1))) {
          continue;
        }
        CommandLine command = commands.get(run.group(1));
        // the command line and its continuation lines (ending in a backslash)
        StringBuilder text = new StringBuilder(lines.get(i).substring(run.end()));
        for (int j = i; lines.get(j).endsWith("\\") && j + 1 < lines.size(); j++) {
          text.append(' ').append(lines.get(j + 1));
        }
        // a comment after the command, or the prose after its code span, is not part of it
        int end = text.length();
        for (String stop : List.of(" #", "`", "&&", "|", ";")) {
          int at = text.indexOf(stop);
          end = at < 0 ? end : Math.min(end, at);
        }
        Matcher option = OPTION.matcher(text.substring(0, end));
        while (option.find()) {
          if (command.getCommandSpec().findOption(option.group()) == null
              && !OTHER_TOOLS.contains(option.group())) {
            wrong.add(
                ROOT.relativize(doc)
                    + ":"
                    + (i + 1)
                    + ": tokentrace "
                    + run.group(1)
                    + " "
                    + option.group());
          }
        }
      }
    }
    assertThat(wrong).as("options given to a command that does not have them").isEmpty();
  }

  private static void collect(CommandLine command, Set<String> names) {
    for (OptionSpec option : command.getCommandSpec().options()) {
      names.addAll(List.of(option.names()));
    }
    command.getSubcommands().values().forEach(sub -> collect(sub, names));
  }

  private static List<Path> docs() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }
}
