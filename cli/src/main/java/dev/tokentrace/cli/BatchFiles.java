package dev.tokentrace.cli;

import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.follow.InstanceNaming;
import dev.tokentrace.ingest.follow.SourceSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The FILE arguments of batch {@code ship} and {@code ingest}, read like {@code --follow} reads
 * them: {@code NAME=PATH} names a file's instance, a quoted glob is matched now, and {@code
 * --instance-from} names the others. Each instance's files then go through {@link SourceFiles}
 * (readable, engine detected, year).
 */
final class BatchFiles {
  private BatchFiles() {}

  /**
   * @param fileProblems receives {@code path:line: reason} of each file left out (empty, no known
   *     format); the others are returned. When every file is left out, that is a usage error.
   */
  static List<SourceFile> resolve(
      List<String> arguments, ParseOptions parse, String naming, List<String> fileProblems) {
    return resolve(arguments, parse, naming, fileProblems, new ArrayList<>());
  }

  /**
   * As {@link #resolve(List, ParseOptions, String, List)}; {@code notes} receives what {@code
   * --learn-gpu-map} learned and every conflict it met.
   */
  static List<SourceFile> resolve(
      List<String> arguments,
      ParseOptions parse,
      String naming,
      List<String> fileProblems,
      List<String> notes) {
    InstanceNaming instanceNaming = instanceNaming(naming);
    Map<String, List<Path>> byInstance = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (String argument : arguments) {
      SourceSpec spec;
      try {
        spec = SourceSpec.parse(argument);
      } catch (IllegalArgumentException e) {
        problems.add(argument + ": " + e.getMessage());
        continue;
      }
      List<String> files = spec.files();
      if (files.isEmpty()) {
        problems.add(spec.pattern() + ": no file matches");
      }
      for (String file : files) {
        String instance = spec.instanceOf(file, instanceNaming, parse.instance);
        byInstance.computeIfAbsent(instance, name -> new ArrayList<>()).add(Path.of(file));
      }
    }
    if (!problems.isEmpty()) {
      throw new UsageException(problems);
    }
    List<SourceFile> resolved = new ArrayList<>();
    for (Map.Entry<String, List<Path>> group : byInstance.entrySet()) {
      resolved.addAll(
          SourceFiles.resolve(group.getValue(), withInstance(parse, group.getKey()), fileProblems));
    }
    if (resolved.isEmpty()) {
      throw new UsageException(fileProblems);
    }
    if (parse.learnGpuMap) {
      LearnedGpus.Result learned = LearnedGpus.apply(resolved, parse.gpuMapping());
      notes.addAll(learned.messages());
      return learned.files();
    }
    return resolved;
  }

  private static InstanceNaming instanceNaming(String naming) {
    for (InstanceNaming value : InstanceNaming.values()) {
      if (value.name().equalsIgnoreCase(naming.strip())) {
        return value;
      }
    }
    throw new UsageException("--instance-from '" + naming + "' is not one of fixed, dir, file");
  }

  private static ParseOptions withInstance(ParseOptions parse, String instance) {
    ParseOptions copy = new ParseOptions();
    copy.engine = parse.engine;
    copy.instance = instance;
    copy.zone = parse.zone;
    copy.year = parse.year;
    copy.maxLineBytes = parse.maxLineBytes;
    copy.maxRejectRatio = parse.maxRejectRatio;
    copy.gpuMap = parse.gpuMap;
    return copy;
  }
}
