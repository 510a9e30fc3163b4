package dev.tokentrace.parse.trtllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.Timestamps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Iteration stats are read as a {@link SparseTree}, everything else as a whole tree: both must give
 * the same outcome for every text, so each case runs through a sparse and a whole-tree {@link
 * JsonRecords} (as one whole line and as one element) and the outcomes are compared: events as
 * their JSON, ignore rules, rejection reasons and whether the line was taken. Cases: the line
 * tables' and samples' JSON objects, unchanged, with every read key given each value of {@link
 * #VALUES} (first and last of duplicate keys, top level and nested), with escaped key names, and
 * randomly mutated as in the fuzz test; each also through a sparse reader that read a {@link
 * #PRIMER} before (its record is reused). Fixed seed.
 */
final class JsonRecordsSparseTreeTest {
  private static final String[] VALUES = {
    "NaN",
    "Infinity",
    "-Infinity",
    "-1",
    "0",
    "-0",
    "-0.0",
    "3.0",
    "2.5",
    "1e999",
    "-1e999",
    "1.5E3",
    "2147483647",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "99999999999999999999999999999999",
    "1" + "0".repeat(1200),
    "\"\"",
    "\" \"",
    "\"7\"",
    "\"overlap\"",
    "\"non_overlap\"",
    "\"09-01-2025 12:00:01.250000\"",
    "\"05-20-2026 08:00:00\"",
    "\"a\\u0062c\"",
    "\"bad \\q escape\"",
    "null",
    "true",
    "false",
    "[]",
    "[1,{\"iter\":2}]",
    "{}",
    "{\"numScheduledRequests\":3,\"usedNumBlocks\":1,\"maxNumBlocks\":4}",
    "{\"x\":[}",
    "01",
    "'x'",
  };

  /** Iteration stats with every read key, top level and nested: read first to fill the record. */
  private static final String PRIMER =
      "{\"iter\":7,\"iterLatencyMS\":3.5,\"inflightBatchingStats\":{\"numScheduledRequests\":2,"
          + "\"numContextRequests\":1,\"numGenRequests\":1,\"numCtxTokens\":10,\"numCtxKvTokens\":4,"
          + "\"numPausedRequests\":1},\"staticBatchingStats\":{\"numScheduledRequests\":2,"
          + "\"numContextRequests\":1,\"numCtxTokens\":10,\"numGenTokens\":3},\"kvCacheStats\":"
          + "{\"usedNumBlocks\":5,\"maxNumBlocks\":50,\"cacheHitRate\":0.5},\"numActiveRequests\":2,"
          + "\"timestamp\":\"09-01-2025 12:00:01.250000\",\"rank\":1,\"numNewActiveRequests\":1,"
          + "\"numQueuedRequests\":3,\"hostStepTimeMS\":2.5,\"schedulerMode\":\"overlap\","
          + "\"requestStats\":[],\"attentionDpRank\":0,\"maxBatchSizeStatic\":8,\"cpuMemUsage\":1,"
          + "\"pinnedMemUsage\":1}";

  @Test
  void sparseReadGivesTheWholeTreesOutcomeOnUnchangedRecords() {
    int events = 0;
    for (String json : corpus()) {
      events += compare(json);
    }
    assertThat(events).as("the corpus makes events through the sparse read").isGreaterThan(50);
  }

  @Test
  void sparseReadGivesTheWholeTreesOutcomeForEveryValueOfEveryReadKey() {
    List<String> keys = new ArrayList<>(IterationStatsMapper.KEYS);
    for (Set<String> child : IterationStatsMapper.CHILD_KEYS.values()) {
      keys.addAll(child);
    }
    for (String json : distinctShapes(corpus())) {
      for (String key : keys) {
        for (String value : VALUES) {
          for (String variant : withValue(json, key, value)) {
            compare(variant, false); // the other tests cover reuse: cheaper this way
          }
        }
      }
    }
  }

  @Test
  void sparseReadGivesTheWholeTreesOutcomeWithEscapedKeysAndTrailingText() {
    for (String json : corpus()) {
      compare(json.replace("\"iter\"", "\"\\u0069ter\""));
      compare(json.replace("\"kvCacheStats\"", "\"kvCache\\u0053tats\""));
      compare(json.replace("\"iter\"", "\"it\\u0065r\"").replace("\"rank\"", "\"r\\u0061nk\""));
      compare(json + " ");
      compare(json + " {}");
      compare(json + ",");
      compare(json + "}");
      compare(json + " x");
      compare(json.substring(0, json.length() - 1));
    }
  }

  @Test
  void sparseReadGivesTheWholeTreesOutcomeOnMutatedRecords() {
    List<String> corpus = corpus();
    Random random = new Random(20261130L);
    for (int round = 0; round < 20_000; round++) {
      compare(TrtLlmLineParserFuzzTest.mutate(corpus.get(random.nextInt(corpus.size())), random));
    }
  }

  /**
   * Runs {@code json} both ways, asserts the same outcomes (an exception counts as one); returns
   * the number of events.
   */
  private static int compare(String json) {
    return compare(json, true);
  }

  /** As {@link #compare(String)}; with {@code reuse}, also through a primed sparse reader. */
  private static int compare(String json, boolean reuse) {
    if (json.isEmpty()) {
      return 0;
    }
    SourcePosition position = new SourcePosition(Recorder.PATH, 1, 0);
    Recorder sparseLine = new Recorder();
    Recorder wholeLine = new Recorder();
    String sparseTaken = outcome(() -> records(true).wholeLine(json, position, sparseLine));
    String wholeTaken = outcome(() -> records(false).wholeLine(json, position, wholeLine));
    assertThat(sparseTaken).as("taken as a whole line: %s", json).isEqualTo(wholeTaken);
    assertThat(sparseLine.outcomes).as("whole line: %s", json).isEqualTo(wholeLine.outcomes);
    Recorder sparseElement = new Recorder();
    Recorder wholeElement = new Recorder();
    String sparseThrown =
        outcome(
            () -> {
              records(true).record(json, position, null, sparseElement);
              return "";
            });
    String wholeThrown =
        outcome(
            () -> {
              records(false).record(json, position, null, wholeElement);
              return "";
            });
    assertThat(sparseThrown).as("element thrown: %s", json).isEqualTo(wholeThrown);
    assertThat(sparseElement.outcomes).as("element: %s", json).isEqualTo(wholeElement.outcomes);
    // the sparse record is reused from one read to the next: nothing of the record before leaks
    // (text that cannot be iteration stats never reaches it)
    if (!reuse || (!json.contains("iter") && json.indexOf('\\') < 0)) {
      return sparseElement.events.size();
    }
    JsonRecords primed = records(true);
    primed.wholeLine(PRIMER, position, new Recorder());
    Recorder reusedLine = new Recorder();
    String reusedTaken = outcome(() -> primed.wholeLine(json, position, reusedLine));
    assertThat(reusedTaken).as("reused, taken as a whole line: %s", json).isEqualTo(wholeTaken);
    assertThat(reusedLine.outcomes)
        .as("reused, whole line: %s", json)
        .isEqualTo(wholeLine.outcomes);
    JsonRecords primedElement = records(true);
    primedElement.record(PRIMER, position, null, new Recorder());
    Recorder reusedElement = new Recorder();
    String reusedThrown =
        outcome(
            () -> {
              primedElement.record(json, position, null, reusedElement);
              return "";
            });
    assertThat(reusedThrown).as("reused, element thrown: %s", json).isEqualTo(wholeThrown);
    assertThat(reusedElement.outcomes)
        .as("reused, element: %s", json)
        .isEqualTo(wholeElement.outcomes);
    return sparseElement.events.size();
  }

  private static String outcome(Supplier<Object> run) {
    try {
      return String.valueOf(run.get());
    } catch (RuntimeException e) {
      return e.toString();
    }
  }

  private static JsonRecords records(boolean sparse) {
    return new JsonRecords(
        "trt-0",
        new Timestamps.Local(
            TrtLlmLineParserTest.SETTINGS.zone(), TrtLlmLineParserTest.SETTINGS.startYear()),
        sparse);
  }

  /**
   * {@code json} with {@code "key":value} added first and last in the object that holds {@code
   * key}'s siblings (top level, or each nested object read), so that it is both overridden by and
   * overrides the record's own value.
   */
  private static List<String> withValue(String json, String key, String value) {
    String pair = "\"" + key + "\":" + value;
    List<String> variants = new ArrayList<>();
    int end = json.lastIndexOf('}');
    if (IterationStatsMapper.KEYS.contains(key) && end > 0) {
      variants.add("{" + pair + "," + json.substring(1));
      variants.add(json.substring(0, end) + "," + pair + "}");
    }
    for (Map.Entry<String, Set<String>> child : IterationStatsMapper.CHILD_KEYS.entrySet()) {
      String open = "\"" + child.getKey() + "\":{";
      int at = json.indexOf(open);
      if (child.getValue().contains(key) && at >= 0) {
        int inside = at + open.length();
        variants.add(json.substring(0, inside) + pair + "," + json.substring(inside));
        int close = json.indexOf('}', inside);
        if (close > 0) {
          variants.add(json.substring(0, close) + "," + pair + json.substring(close));
        }
      }
    }
    return variants;
  }

  /**
   * One record per distinct shape (the keys it holds, in order): records of the same shape take the
   * same path through the sparse read for an added key, so the key-by-value product runs once per
   * shape rather than once per sample line (it took 48 s of the suite that way).
   */
  private static List<String> distinctShapes(List<String> corpus) {
    Map<String, String> byShape = new LinkedHashMap<>();
    Pattern key = Pattern.compile("\"([^\"\\\\]*)\"\\s*:");
    for (String json : corpus) {
      StringBuilder shape = new StringBuilder();
      Matcher m = key.matcher(json);
      while (m.find()) {
        shape.append(m.group(1)).append(',');
      }
      byShape.putIfAbsent(shape.toString(), json);
    }
    return new ArrayList<>(byShape.values());
  }

  /** JSON objects of the line tables and the TensorRT-LLM stats samples, one per line. */
  @SuppressWarnings("unchecked")
  private static List<String> corpus() {
    List<String> lines = new ArrayList<>();
    Stream.concat(TrtLlmLineParserTest.formats(), TrtLlmLineParserTest.badLines())
        .map(Arguments::get)
        .forEach(arguments -> lines.addAll((List<String>) arguments[1]));
    for (String sample :
        List.of(
            "v1.1-concurrency-sweep/iteration_stats.jsonl",
            "formats/2024-08-iter-stats-cpp-jsonl/iteration_stats.jsonl")) {
      List<String> all = sampleLines(sample);
      lines.addAll(all.subList(0, Math.min(40, all.size())));
    }
    lines.removeIf(line -> !line.startsWith("{"));
    return lines;
  }

  private static List<String> sampleLines(String name) {
    Path file = Path.of("..", "samples", "trtllm").resolve(name);
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }
}
