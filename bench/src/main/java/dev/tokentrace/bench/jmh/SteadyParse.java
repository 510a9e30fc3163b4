package dev.tokentrace.bench.jmh;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Steady-state parser throughput on a loaded machine, where JMH's warm-up may end before C2 has
 * compiled the parser: whole files through {@link Parsers#create} (optionally each event through
 * {@link EventJson#write}, as {@code ship} encodes it), alternated round by round with the {@link
 * LineSplitter} over the same bytes, for a fixed time; prints the median lines per CPU-second of
 * the last third of the rounds of each, and their ratio (BENCHMARKS.md, "Parsers, round 6").
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" dev.tokentrace.bench.jmh.SteadyParse \
 *   ENGINE SECONDS json|events|tokens FILE...
 * </pre>
 *
 * <p>{@code tokens} measures, in place of the parser, a bare Jackson loop: a parser over each
 * line's UTF-8 bytes (the factory and features of the TensorRT-LLM JSON reader), every token read,
 * nothing built: the limit of any reading of one Jackson parser per line.
 */
public final class SteadyParse {
  private static final ParseSettings SETTINGS = new ParseSettings("bench", ZoneOffset.UTC, 2025);

  /** As the TensorRT-LLM JSON reader's factory (NaN and Infinity allowed). */
  private static final JsonFactory TOKENS =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build().getFactory();

  private long sink;

  private SteadyParse() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 4) {
      System.err.println("usage: SteadyParse ENGINE SECONDS json|events|tokens FILE...");
      System.exit(2);
    }
    Engine engine = Engine.valueOf(args[0].toUpperCase(Locale.ROOT));
    long seconds = Long.parseLong(args[1]);
    boolean json = args[2].equals("json");
    List<String[]> lines = new ArrayList<>();
    List<byte[]> bytes = new ArrayList<>();
    for (int i = 3; i < args.length; i++) {
      lines.add(Files.readAllLines(Path.of(args[i]), UTF_8).toArray(new String[0]));
      bytes.add(Files.readAllBytes(Path.of(args[i])));
    }
    new SteadyParse().run(engine, seconds, json, args[2].equals("tokens"), lines, bytes);
  }

  private void run(
      Engine engine,
      long seconds,
      boolean json,
      boolean tokens,
      List<String[]> files,
      List<byte[]> bytes)
      throws IOException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    ParseOutput output = output(json);
    LineSplitter.Receiver receiver = receiver();
    List<Double> parse = new ArrayList<>();
    List<Double> split = new ArrayList<>();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (System.nanoTime() < end) {
      long start = threads.getCurrentThreadCpuTime();
      long count = 0;
      for (String[] file : files) {
        if (tokens) {
          count += tokens(file);
          continue;
        }
        LineParser parser = Parsers.create(engine, SETTINGS);
        for (int i = 0; i < file.length; i++) {
          parser.parse(file[i], new SourcePosition("bench.log", i + 1, i), output);
        }
        parser.finish(output);
        count += file.length;
      }
      long parsed = threads.getCurrentThreadCpuTime();
      for (byte[] file : bytes) {
        LineSplitter splitter = new LineSplitter(LineSplitter.DEFAULT_MAX_LINE_BYTES);
        splitter.feed(file, 0, file.length, receiver);
        splitter.finish(receiver);
      }
      long splitDone = threads.getCurrentThreadCpuTime();
      parse.add(count / ((parsed - start) / 1e9));
      split.add(count / ((splitDone - parsed) / 1e9));
    }
    double parseRate = lastThirdMedian(parse);
    double splitRate = lastThirdMedian(split);
    System.out.printf(
        Locale.ROOT,
        "%s, %d rounds, median of the last third: %s %.0f lines/cpu-s, split %.0f,"
            + " ratio %.1f %% (%d)%n",
        engine,
        parse.size(),
        tokens ? "Jackson tokens" : json ? "parse + EventJson.write" : "parse",
        parseRate,
        splitRate,
        100 * parseRate / splitRate,
        sink & 1);
  }

  private long tokens(String[] file) throws IOException {
    for (String line : file) {
      try (JsonParser parser = TOKENS.createParser(line.getBytes(UTF_8))) {
        for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
          sink += token.ordinal();
        }
      }
    }
    return file.length;
  }

  private ParseOutput output(boolean json) {
    return new ParseOutput() {
      @Override
      public void event(EngineEvent event) {
        sink += json ? EventJson.write(event).length() : event.hashCode();
      }

      @Override
      public void ignored(SourcePosition position, String rule) {
        sink++;
      }

      @Override
      public void rejected(Rejection rejection) {
        sink--;
      }
    };
  }

  private LineSplitter.Receiver receiver() {
    return new LineSplitter.Receiver() {
      @Override
      public void line(String text, long number, long offset) {
        sink += text.length() + offset;
      }

      @Override
      public void invalid(long number, long offset, String reason, byte[] raw) {
        sink++;
      }
    };
  }

  private static double lastThirdMedian(List<Double> rates) {
    List<Double> last = new ArrayList<>(rates.subList(rates.size() * 2 / 3, rates.size()));
    Collections.sort(last);
    return last.get(last.size() / 2);
  }
}
