package dev.tokentrace.parse;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.gpu.GpuFuzzCorpus;
import dev.tokentrace.parse.sglang.SglangFuzzCorpus;
import dev.tokentrace.parse.trtllm.TrtLlmFuzzCorpus;
import dev.tokentrace.parse.vllm.VllmFuzzCorpus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No line may vanish: for every server file of every sample ({@code samples/**}) and every fuzz
 * input of the three engines, each physical line is reported to the sink (an event from it, a named
 * ignore rule or a rejection), so that {@code lines = parsed + ignored + rejected} holds line by
 * line. The same holds with every collector envelope around each line (docs/formats/collectors.md),
 * and for the envelopes that always come off, the events are those of the plain file: the collector
 * layer neither loses nor changes what the engine wrote.
 */
final class LineAccountingTest {
  private static final Path SAMPLES = Path.of("..", "samples");
  private static final String TIME = "2026-01-02T03:04:05.123456789Z";
  private static final int FUZZ_ROUNDS = 6;

  /** Each file's plain parse, the reference for every wrapper. */
  private static final Map<Path, Accounting> PLAIN = new ConcurrentHashMap<>();

  /** How a collector writes one engine line; some write it in two parts. */
  enum Wrapper {
    NONE(true),
    DOCKER_JSON(true),
    DOCKER_JSON_PARTS(true),
    CRI(true),
    CRI_PARTS(true),
    KUBECTL_TIMESTAMPS(true),
    JOURNALD_SHORT(true),
    JOURNALD_SHORT_ISO(true),
    JOURNALD_SHORT_FULL(true),
    COMPOSE_IN_CRI(true),
    COLLECTOR_TIME(false),
    COLLECTOR_TIME_BRACKETED(false);

    /** The envelope always comes off, so events must equal the plain file's. */
    final boolean transparent;

    Wrapper(boolean transparent) {
      this.transparent = transparent;
    }

    List<String> wrap(String line) {
      switch (this) {
        case NONE:
          return List.of(line);
        case DOCKER_JSON:
          return List.of(dockerJson(line + "\n", "stdout"));
        case DOCKER_JSON_PARTS:
          {
            int cut = line.length() / 2;
            return List.of(
                dockerJson(line.substring(0, cut), "stdout"),
                dockerJson(line.substring(cut) + "\n", "stdout"));
          }
        case CRI:
          return List.of(TIME + " stdout F " + line);
        case CRI_PARTS:
          {
            int cut = line.length() / 2;
            return List.of(
                TIME + " stderr P " + line.substring(0, cut),
                TIME + " stderr F " + line.substring(cut));
          }
        case KUBECTL_TIMESTAMPS:
          return List.of(TIME + " " + line);
        case JOURNALD_SHORT:
          return List.of("Jan 02 03:04:05 gpu-7 python3[4242]: " + line);
        case JOURNALD_SHORT_ISO:
          return List.of("2026-01-02T03:04:05+0000 gpu-7 python3[4242]: " + line);
        case JOURNALD_SHORT_FULL:
          return List.of("Fri 2026-01-02 03:04:05 UTC gpu-7 python3[4242]: " + line);
        case COMPOSE_IN_CRI:
          return List.of(TIME + " stdout F server-1  | " + line);
        case COLLECTOR_TIME:
          return List.of("2026-01-02 03:04:05,123 " + line);
        case COLLECTOR_TIME_BRACKETED:
          return List.of("[2026-01-02 03:04:05.123] " + line);
        default:
          throw new IllegalStateException("unhandled wrapper: " + this);
      }
    }
  }

  static Stream<Arguments> sampleFiles() {
    List<Arguments> rows = new ArrayList<>();
    for (Engine engine : Engine.values()) {
      Path dir = SAMPLES.resolve(engine.id());
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path file : files.filter(LineAccountingTest::isServerFile).sorted().toList()) {
          // a scenario's gpu/ folder holds its GPU telemetry
          // (docs/formats/gpu.md#simulated-telemetry)
          Engine source = isGpuTelemetry(file) ? Engine.GPU : engine;
          for (Wrapper wrapper : Wrapper.values()) {
            rows.add(Arguments.of(SAMPLES.relativize(file).toString(), source, file, wrapper));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + dir, e);
      }
    }
    return rows.stream();
  }

  static Stream<Arguments> fuzzInputs() {
    List<Arguments> rows = new ArrayList<>();
    for (Engine engine : Engine.values()) {
      for (Wrapper wrapper : Wrapper.values()) {
        rows.add(Arguments.of(engine, wrapper));
      }
    }
    return rows.stream();
  }

  @ParameterizedTest(name = "{0} in {3}")
  @MethodSource("sampleFiles")
  void everyLineOfEverySampleIsAccountedFor(String name, Engine engine, Path file, Wrapper wrapper)
      throws IOException {
    List<String> lines = Files.readAllLines(file, UTF_8);
    ParseSettings settings = settingsOf(file.getParent());
    Accounting plain =
        PLAIN.computeIfAbsent(file, unused -> run(engine, settings, lines, Wrapper.NONE));
    Accounting wrapped = run(engine, settings, lines, wrapper);

    wrapped.assertEveryLineReported(name + " in " + wrapper);
    if (wrapper.transparent) {
      assertThat(wrapped.bodies(plain))
          .as("%s in %s: the events of the plain file", name, wrapper)
          .containsExactlyElementsOf(plain.bodies(plain));
      assertThat(wrapped.reasons)
          .as("%s in %s: rejections", name, wrapper)
          .isEqualTo(plain.reasons);
    }
    if (wrapper == Wrapper.DOCKER_JSON || wrapper == Wrapper.CRI_PARTS) {
      List<String> head = wrapped.physical.subList(0, Math.min(200, wrapped.physical.size()));
      assertThat(Parsers.detect(head, settings).engine())
          .as("%s in %s: engine detected", name, wrapper)
          .contains(engine);
    }
  }

  @ParameterizedTest(name = "{0} fuzz inputs in {1}")
  @MethodSource("fuzzInputs")
  void everyFuzzInputIsAccountedFor(Engine engine, Wrapper wrapper) {
    List<String> lines = fuzzCorpus(engine);
    Accounting wrapped = run(engine, ParseSettings.of("fuzz", 2025), lines, wrapper);
    wrapped.assertEveryLineReported(engine.id() + " fuzz inputs in " + wrapper);
  }

  private static List<String> fuzzCorpus(Engine engine) {
    switch (engine) {
      case VLLM:
        return VllmFuzzCorpus.lines(FUZZ_ROUNDS);
      case SGLANG:
        return SglangFuzzCorpus.lines(FUZZ_ROUNDS);
      case TRTLLM:
        return TrtLlmFuzzCorpus.lines(FUZZ_ROUNDS);
      case GPU:
        return GpuFuzzCorpus.lines(FUZZ_ROUNDS);
      default:
        throw new IllegalStateException("unhandled engine: " + engine);
    }
  }

  private static Accounting run(
      Engine engine, ParseSettings settings, List<String> lines, Wrapper wrapper) {
    Accounting sink = new Accounting();
    for (String line : lines) {
      sink.physical.addAll(wrapper.wrap(line));
    }
    LineParser parser = Parsers.create(engine, settings);
    long number = 1;
    for (String line : sink.physical) {
      parser.parse(line, new SourcePosition("f.log", number++, 0), sink);
    }
    parser.finish(sink);
    return sink;
  }

  private static ParseSettings settingsOf(Path dir) throws IOException {
    int year = 2026;
    Path properties = dir.resolve("scenario.properties");
    if (Files.isRegularFile(properties)) {
      for (String line : Files.readAllLines(properties, UTF_8)) {
        if (line.startsWith("year=")) {
          year = Integer.parseInt(line.substring(5).trim());
        }
      }
    }
    return ParseSettings.of("samples", year);
  }

  private static boolean isGpuTelemetry(Path file) {
    Path parent = file.getParent();
    return parent != null && parent.getFileName().toString().equals("gpu");
  }

  private static boolean isServerFile(Path file) {
    if (!Files.isRegularFile(file) || file.toString().contains("/expected/")) {
      return false;
    }
    String lower = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return !lower.startsWith("client_")
        && !lower.startsWith(".")
        && !lower.equals("truth.csv")
        && !lower.equals("server_truth.csv")
        && !lower.equals("gateway_truth.csv")
        && !lower.equals("gpu_truth.csv")
        && !lower.equals("scenario.properties")
        && !lower.endsWith(".md");
  }

  private static String dockerJson(String log, String stream) {
    ObjectNode record = EventJson.mapper().createObjectNode();
    record.set("log", TextNode.valueOf(log));
    record.put("stream", stream);
    record.put("time", TIME);
    return record.toString();
  }

  /** Records which physical lines were reported, and the events and rejection reasons in order. */
  private static final class Accounting implements ParseOutput {
    final List<String> physical = new ArrayList<>();
    final List<EngineEvent> events = new ArrayList<>();
    final List<String> reasons = new ArrayList<>();
    final Set<Long> reported = new TreeSet<>();

    @Override
    public void event(EngineEvent event) {
      events.add(event);
      reported.add(event.source().line());
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      reported.add(position.line());
    }

    @Override
    public void rejected(Rejection rejection) {
      reasons.add(rejection.reason());
      reported.add(rejection.position().line());
    }

    void assertEveryLineReported(String label) {
      Set<Long> missing = new TreeSet<>();
      for (long line = 1; line <= physical.size(); line++) {
        if (!reported.contains(line)) {
          missing.add(line);
        }
      }
      assertThat(missing)
          .as(
              "%s: lines reported neither as event, ignored nor rejected (first: %s)",
              label, missing.isEmpty() ? "" : physical.get((int) (missing.iterator().next() - 1)))
          .isEmpty();
    }

    /**
     * The events without their source position, and without a time where the plain file's event at
     * the same index had none (a collector's time then dates the line).
     */
    List<JsonNode> bodies(Accounting plain) {
      List<JsonNode> bodies = new ArrayList<>();
      for (int i = 0; i < events.size(); i++) {
        ObjectNode node = tree(events.get(i));
        node.remove("source");
        boolean plainHasTs = i < plain.events.size() && plain.events.get(i).ts() != null;
        if (!plainHasTs) {
          node.remove("ts");
        }
        bodies.add(node);
      }
      return bodies;
    }

    private static ObjectNode tree(EngineEvent event) {
      try {
        return (ObjectNode) EventJson.mapper().readTree(EventJson.write(event));
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
