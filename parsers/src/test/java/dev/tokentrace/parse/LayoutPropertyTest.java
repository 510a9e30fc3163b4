package dev.tokentrace.parse;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The layout stage's property (docs/formats/layouts.md): every message body an engine writes gives
 * the same events whatever layout surrounds it. The bodies are those of every sample file under
 * {@code samples/<engine>} (taken out of the engine's own header) and the startup configuration
 * lines of docs/formats/*.md; each is parsed alone, once behind the engine's own header (the
 * reference) and once in each of eight layouts. All layouts print the same wall-clock time as the
 * reference header, so the events are compared whole, time included, except:
 *
 * <ul>
 *   <li>the source position;
 *   <li>for layouts that add a process or rank tag of their own, SGLang's {@code rank} and the rank
 *       suffix of per-GPU config keys, which name that tag (docs/formats/sglang.md#rank-tags);
 *   <li>for layouts that replace the engine's header, the time of an event whose body carries a
 *       time of its own (an SGLang {@code Finish:} record's finish time): without the header that
 *       time wins over the wrapper's (docs/formats/layouts.md#which-time), so the expected time is
 *       the one the bare body gives.
 * </ul>
 */
final class LayoutPropertyTest {
  private static final Path SAMPLES = Path.of("..", "samples");
  private static final String ESC = "\u001B";

  /** The reference header's time in each engine's format, and the same instant in the wrappers'. */
  private static final String ISO_UTC = "2026-01-02T03:04:05.000000Z";

  private static final int MAX_BODIES = 400;

  private static final Pattern VLLM_LINE =
      Pattern.compile(
          "^(?:\\([^)]*pid=\\d+[^)]*\\) )?(DEBUG|INFO|WARNING|ERROR|CRITICAL)"
              + " \\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\[?[\\w./-]+:\\d+\\] (.+)$");
  private static final Pattern SGLANG_LINE =
      Pattern.compile(
          "^\\[\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?(?: [A-Z_]+\\d+)*\\] (.+)$");
  private static final Pattern TRT_PYTHON_LINE =
      Pattern.compile(
          "^\\[\\d\\d/\\d\\d/\\d{4}-\\d\\d:\\d\\d:\\d\\d\\] \\[TRT-LLM\\] \\[([IWE])\\] (.+)$");
  private static final Pattern TRT_CPP_LINE =
      Pattern.compile("^\\[TensorRT-LLM\\]\\[(INFO|WARNING|ERROR)\\] (.+)$");

  /** Startup configuration bodies of docs/formats/*.md#startup-configuration-lines. */
  private static final List<Body> STARTUP =
      List.of(
          new Body(Engine.VLLM, "INFO", "vLLM API server version 0.16.0"),
          new Body(Engine.VLLM, "INFO", "GPU KV cache size: 94,256 tokens"),
          new Body(Engine.VLLM, "INFO", "Maximum concurrency for 32,768 tokens per request: 2.88x"),
          new Body(
              Engine.VLLM, "INFO", "Chunked prefill is enabled with max_num_batched_tokens=8192."),
          new Body(
              Engine.VLLM,
              "INFO",
              "non-default args: {'model': 'm', 'max_num_seqs': 64, 'tensor_parallel_size': 2}"),
          new Body(
              Engine.SGLANG,
              "INFO",
              "max_total_num_tokens=400000, chunked_prefill_size=8192, max_prefill_tokens=16384,"
                  + " max_running_requests=256, context_len=32768, available_gpu_mem=10.5 GB"),
          new Body(
              Engine.SGLANG,
              "INFO",
              "KV Cache is allocated. #tokens: 400000, K size: 24.41 GB, V size: 24.41 GB"),
          new Body(
              Engine.SGLANG,
              "INFO",
              "Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.47 GB"),
          new Body(Engine.SGLANG, "INFO", "Load weight begin. avail mem=78.52 GB"),
          new Body(
              Engine.SGLANG,
              "INFO",
              "server_args=ServerArgs(model_path='m', tp_size=2, max_running_requests=256)"),
          new Body(
              Engine.TRTLLM,
              "INFO",
              "max_seq_len=32768, max_num_requests=256, max_num_tokens=8192, max_batch_size=256"),
          new Body(Engine.TRTLLM, "INFO", "MPI size: 2, rank: 0"));

  /** One message body and the level its record had. */
  record Body(Engine engine, String level, String text) {}

  /** Eight layouts around a body, each printing the reference time. */
  enum Layout {
    /** The engine's own header with ANSI colours, as terminals and some files get them. */
    ANSI,
    /** A process manager's tag in front ({@code (EngineCore_DP0 pid=123) }). */
    PROCESS_TAG,
    /** Ray's dedup suffix after the whole line. */
    RAY_SUFFIX,
    /** Dynamo's readable layout instead of the engine's header. */
    DYNAMO,
    /** Dynamo's layout with the colours of a terminal. */
    DYNAMO_ANSI,
    /** A deployment's {@code [date][file:line][LEVEL]: } instead of the engine's header. */
    BRACKETED,
    /** The rank tags and location in a logger field with blanks, after a date-only prefix. */
    RANK_FIELD,
    /** CRI envelope, Dynamo, Ray suffix and colours together. */
    COMBINED;

    String wrap(Body body) {
      String reference = reference(body);
      String level = body.level();
      switch (this) {
        case ANSI:
          return ESC + "[32m" + reference.substring(0, 1) + ESC + "[0m" + reference.substring(1);
        case PROCESS_TAG:
          return ESC + "[36m(EngineCore_DP0 pid=123)" + ESC + "[0m " + reference;
        case RAY_SUFFIX:
          return reference + " [repeated 2x across cluster]";
        case DYNAMO:
          return ISO_UTC + " " + dynamoLevel(level) + " main.init: " + body.text();
        case DYNAMO_ANSI:
          return ESC
              + "[2m"
              + ISO_UTC
              + ESC
              + "[0m "
              + ESC
              + "[32m"
              + dynamoLevel(level)
              + ESC
              + "[0m "
              + ESC
              + "[2mmain.init"
              + ESC
              + "[0m"
              + ESC
              + "[2m:"
              + ESC
              + "[0m "
              + body.text();
        case BRACKETED:
          return "[2026-01-02 03:04:05,000][scheduler.py:222][" + level + "]: " + body.text();
        case RANK_FIELD:
          return "[2026-01-02 03:04:05] [ DP15 TP15 EP15 scheduler.py:222] " + body.text();
        case COMBINED:
          return "2026-01-02T03:04:05.5Z stdout F "
              + ESC
              + "[2m"
              + ISO_UTC
              + ESC
              + "[0m "
              + dynamoLevel(level)
              + " dynamo.sglang.worker: "
              + body.text()
              + " "
              + ESC
              + "[2m[repeated 3x across cluster]"
              + ESC
              + "[0m";
        default:
          throw new IllegalStateException("unhandled layout: " + this);
      }
    }

    /** Whether the engine's own header is still in the line. */
    boolean keepsHeader() {
      return this == ANSI || this == PROCESS_TAG || this == RAY_SUFFIX || this == RANK_FIELD;
    }

    /** Whether the layout adds a tag that SGLang's rank legitimately names. */
    boolean tagsRank() {
      return this == PROCESS_TAG || this == RANK_FIELD;
    }

    /** The rank field is a layout of SGLang's own logger field (docs/formats/sglang-wild.md). */
    boolean appliesTo(Engine engine) {
      return this != RANK_FIELD || engine == Engine.SGLANG;
    }
  }

  static Stream<Arguments> bodiesByLayout() {
    List<Arguments> rows = new ArrayList<>();
    for (Engine engine : List.of(Engine.VLLM, Engine.SGLANG, Engine.TRTLLM)) {
      List<Body> bodies = bodies(engine);
      for (Layout layout : Layout.values()) {
        if (layout.appliesTo(engine)) {
          rows.add(Arguments.of(engine, layout, bodies));
        }
      }
    }
    return rows.stream();
  }

  @ParameterizedTest(name = "{0} bodies in {1}")
  @MethodSource("bodiesByLayout")
  void everyBodyGivesTheSameEventsInEveryLayout(Engine engine, Layout layout, List<Body> bodies) {
    assertThat(bodies).as("%s bodies", engine).hasSizeGreaterThan(10);
    int withEvents = 0;
    for (Body body : bodies) {
      List<ObjectNode> expected = events(engine, reference(body), layout.tagsRank());
      List<ObjectNode> wrapped = events(engine, layout.wrap(body), layout.tagsRank());
      if (!layout.keepsHeader()) {
        List<ObjectNode> bare = events(engine, body.text(), layout.tagsRank());
        for (int i = 0; i < expected.size() && i < bare.size(); i++) {
          if (bare.get(i).has("ts")
              && bare.get(i).path("type").equals(expected.get(i).path("type"))) {
            expected.get(i).set("ts", bare.get(i).get("ts"));
          }
        }
      }
      assertThat(wrapped).as("%s in %s: %s", engine, layout, layout.wrap(body)).isEqualTo(expected);
      withEvents += expected.isEmpty() ? 0 : 1;
    }
    assertThat(withEvents).as("%s bodies that make events", engine).isGreaterThan(5);
  }

  /** The body behind the engine's own header, at 2026-01-02 03:04:05 in the default zone (UTC). */
  static String reference(Body body) {
    switch (body.engine()) {
      case VLLM:
        return body.level() + " 01-02 03:04:05 [loggers.py:123] " + body.text();
      case SGLANG:
        return "[2026-01-02 03:04:05] " + body.text();
      case TRTLLM:
        return "[01/02/2026-03:04:05] [TRT-LLM] [" + body.level().charAt(0) + "] " + body.text();
      default:
        throw new IllegalStateException("unhandled engine: " + body.engine());
    }
  }

  private static String dynamoLevel(String level) {
    switch (level) {
      case "WARNING":
        return " WARN";
      case "ERROR":
        return "ERROR";
      case "DEBUG":
        return "DEBUG";
      default:
        return " INFO";
    }
  }

  private static List<ObjectNode> events(Engine engine, String line, boolean withoutRank) {
    List<ObjectNode> events = new ArrayList<>();
    ParseOutput sink =
        new ParseOutput() {
          @Override
          public void event(EngineEvent event) {
            ObjectNode node = tree(event);
            node.remove("source");
            if (withoutRank) {
              node.remove("rank");
              String key = node.path("key").asText("");
              int dot = key.indexOf('.');
              if (key.startsWith("gpu_") && dot > 0) {
                node.put("key", key.substring(0, dot));
              }
            }
            events.add(node);
          }

          @Override
          public void ignored(SourcePosition position, String rule) {}

          @Override
          public void rejected(Rejection rejection) {
            events.add(EventJson.mapper().createObjectNode().put("rejected", rejection.reason()));
          }
        };
    LineParser parser = Parsers.create(engine, ParseSettings.of("layouts", 2026));
    parser.parse(line, new SourcePosition("f.log", 1, 0), sink);
    parser.finish(sink);
    return events;
  }

  /** Every distinct body of the engine's sample files, in a stable order, and the startup ones. */
  private static List<Body> bodies(Engine engine) {
    TreeMap<String, Body> found = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SAMPLES.resolve(engine.id()))) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        for (String line : Files.readAllLines(file, UTF_8)) {
          Body body = body(engine, line);
          if (body != null && !body.text().isBlank()) {
            found.putIfAbsent(body.text(), body);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Body> bodies = new ArrayList<>();
    // spread the cap over the whole sorted set so that every kind of body is kept
    List<Body> all = new ArrayList<>(found.values());
    int step = Math.max(1, all.size() / MAX_BODIES);
    for (int i = 0; i < all.size(); i += step) {
      bodies.add(all.get(i));
    }
    STARTUP.stream().filter(b -> b.engine() == engine).forEach(bodies::add);
    return bodies;
  }

  private static Body body(Engine engine, String line) {
    switch (engine) {
      case VLLM:
        {
          Matcher m = VLLM_LINE.matcher(line);
          return m.matches() ? new Body(engine, m.group(1), m.group(2)) : null;
        }
      case SGLANG:
        {
          Matcher m = SGLANG_LINE.matcher(line);
          return m.matches() ? new Body(engine, "INFO", m.group(1)) : null;
        }
      case TRTLLM:
        {
          Matcher python = TRT_PYTHON_LINE.matcher(line);
          if (python.matches()) {
            // a 2026 module and rank tag belong to TensorRT-LLM's header, not to the body
            // (docs/formats/trtllm.md#python-logger)
            String text = python.group(2);
            if (text.matches("^\\[[\\w.]*\\]\\[RANK \\d+\\].*")) {
              return null;
            }
            // a 2026 module tag is a lower-case word; message tags are not
            // ([MemUsageChange], [kv cache manager])
            text = text.replaceFirst("^\\[[a-z_]+\\] ", "");
            return new Body(engine, trtLevel(python.group(1)), text);
          }
          Matcher cpp = TRT_CPP_LINE.matcher(line);
          return cpp.matches() ? new Body(engine, cpp.group(1), cpp.group(2)) : null;
        }
      default:
        return null;
    }
  }

  private static String trtLevel(String letter) {
    switch (letter) {
      case "W":
        return "WARNING";
      case "E":
        return "ERROR";
      default:
        return "INFO";
    }
  }

  private static ObjectNode tree(EngineEvent event) {
    try {
      return (ObjectNode) EventJson.mapper().readTree(EventJson.write(event));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
