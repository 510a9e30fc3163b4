package dev.tokentrace.bench.ingest;

import java.util.List;

/** One child JVM of the benchmark: its name, JVM options, main class and arguments. */
record Stage(String name, List<String> jvmOptions, String mainClass, List<String> args) {
  Stage {
    jvmOptions = List.copyOf(jvmOptions);
    args = List.copyOf(args);
  }
}
