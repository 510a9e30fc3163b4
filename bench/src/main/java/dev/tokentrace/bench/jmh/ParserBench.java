package dev.tokentrace.bench.jmh;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Lines per second of one thread, per engine and line kind ({@link LineKind}), four ways over the
 * same {@value #LINES} lines taken from the checked-in samples (written by us to the documented
 * formats), repeated in order where a file has fewer:
 *
 * <ul>
 *   <li>{@code parse}: the engine's parser (as {@link Parsers#create} makes it, guarded) over the
 *       lines as strings: the parser alone;
 *   <li>{@code splitAndParse}: the project's {@link LineSplitter} over the lines' bytes, each line
 *       handed to the parser: what {@code ship} does once the bytes are in memory;
 *   <li>{@code split}: the {@link LineSplitter} alone (UTF-8 checked, each line a {@code String}):
 *       the I/O-free limit of anything that reads lines;
 *   <li>{@code indexOf}: a plain loop finding each {@code '\n'}: the limit of touching the bytes.
 * </ul>
 *
 * <p>The lines are checked at setup to give events and no rejection, so the benchmark measures the
 * parse path, not the reject path (a step line with no requests, or a mixed log's noise, is ignored
 * by a named rule, which is part of that path). Samples: {@code -Dtokentrace.bench.samples=DIR}
 * (default {@code samples}, i.e. run from the repository root as {@code bench/parsers.sh} does).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ParserBench {
  /** Lines per benchmark invocation; JMH scores are then lines/s. */
  static final int LINES = 2_000;

  private static final ParseSettings SETTINGS = new ParseSettings("bench", ZoneOffset.UTC, 2025);

  @Param({
    "VLLM_STATS",
    "VLLM_ITERATION",
    "VLLM_REQUEST",
    "VLLM_OTLP",
    "VLLM_MIXED",
    "SGLANG_DECODE",
    "SGLANG_PREFILL",
    "SGLANG_REQUEST",
    "SGLANG_MIXED",
    "TRTLLM_ITER_LOG",
    "TRTLLM_STATS_JSON",
    "TRTLLM_MIXED"
  })
  public String kind;

  private LineKind lineKind;
  private String[] lines;
  private SourcePosition[] positions;
  private byte[] bytes;

  @Setup
  public void load() {
    lineKind = LineKind.valueOf(kind);
    Path samples = Path.of(System.getProperty("tokentrace.bench.samples", "samples"));
    List<String> matching = read(samples.resolve(lineKind.engine().id()), lineKind);
    lines = new String[LINES];
    positions = new SourcePosition[LINES];
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    long offset = 0;
    for (int i = 0; i < LINES; i++) {
      lines[i] = matching.get(i % matching.size());
      positions[i] = new SourcePosition("bench.log", i + 1, offset);
      byte[] line = (lines[i] + "\n").getBytes(UTF_8);
      joined.writeBytes(line);
      offset += line.length;
    }
    bytes = joined.toByteArray();
    check();
  }

  @Benchmark
  @OperationsPerInvocation(LINES)
  public void parse(Blackhole blackhole) {
    LineParser parser = Parsers.create(lineKind.engine(), SETTINGS);
    Consumer sink = new Consumer(blackhole);
    for (int i = 0; i < LINES; i++) {
      parser.parse(lines[i], positions[i], sink);
    }
    parser.finish(sink);
  }

  @Benchmark
  @OperationsPerInvocation(LINES)
  public void splitAndParse(Blackhole blackhole) {
    LineParser parser = Parsers.create(lineKind.engine(), SETTINGS);
    Consumer sink = new Consumer(blackhole);
    LineSplitter splitter = new LineSplitter(LineSplitter.DEFAULT_MAX_LINE_BYTES);
    LineSplitter.Receiver receiver =
        new LineSplitter.Receiver() {
          @Override
          public void line(String text, long number, long offset) {
            parser.parse(text, new SourcePosition("bench.log", number, offset), sink);
          }

          @Override
          public void invalid(long number, long offset, String reason, byte[] raw) {
            blackhole.consume(reason);
          }
        };
    splitter.feed(bytes, 0, bytes.length, receiver);
    splitter.finish(receiver);
    parser.finish(sink);
  }

  @Benchmark
  @OperationsPerInvocation(LINES)
  public void split(Blackhole blackhole) {
    LineSplitter splitter = new LineSplitter(LineSplitter.DEFAULT_MAX_LINE_BYTES);
    LineSplitter.Receiver receiver =
        new LineSplitter.Receiver() {
          @Override
          public void line(String text, long number, long offset) {
            blackhole.consume(text);
            blackhole.consume(offset);
          }

          @Override
          public void invalid(long number, long offset, String reason, byte[] raw) {
            blackhole.consume(reason);
          }
        };
    splitter.feed(bytes, 0, bytes.length, receiver);
    splitter.finish(receiver);
  }

  @Benchmark
  @OperationsPerInvocation(LINES)
  public void indexOf(Blackhole blackhole) {
    byte[] input = bytes;
    int start = 0;
    for (int i = 0; i < input.length; i++) {
      if (input[i] == '\n') {
        blackhole.consume(i - start);
        start = i + 1;
      }
    }
  }

  private static List<String> read(Path engineSamples, LineKind kind) {
    List<String> matching = new ArrayList<>();
    for (String name : kind.files()) {
      Path file = engineSamples.resolve(name);
      try (Stream<String> all = Files.lines(file, UTF_8)) {
        all.filter(kind::matches).forEach(matching::add);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read " + file + " (run from the repository root)", e);
      }
    }
    if (matching.isEmpty()) {
      throw new IllegalStateException(engineSamples + ": no " + kind + " line");
    }
    return matching.size() > LINES ? matching.subList(0, LINES) : matching;
  }

  /** Fails unless every line parses into events without rejection. */
  private void check() {
    LineParser parser = Parsers.create(lineKind.engine(), SETTINGS);
    Counter counter = new Counter();
    for (int i = 0; i < LINES; i++) {
      parser.parse(lines[i], positions[i], counter);
    }
    parser.finish(counter);
    if (counter.rejected > 0 || counter.events == 0) {
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "%s: %d lines gave %d events, %d ignored, %d rejected (%s)",
              kind,
              LINES,
              counter.events,
              counter.ignored,
              counter.rejected,
              counter.firstReason));
    }
  }

  /** Hands every outcome to the blackhole, so that nothing the parser makes is dead code. */
  private static final class Consumer implements ParseOutput {
    private final Blackhole blackhole;

    Consumer(Blackhole blackhole) {
      this.blackhole = blackhole;
    }

    @Override
    public void event(EngineEvent event) {
      blackhole.consume(event);
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      blackhole.consume(rule);
    }

    @Override
    public void rejected(Rejection rejection) {
      blackhole.consume(rejection);
    }
  }

  private static final class Counter implements ParseOutput {
    private long events;
    private long ignored;
    private long rejected;
    private String firstReason = "";

    @Override
    public void event(EngineEvent event) {
      events++;
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      ignored++;
    }

    @Override
    public void rejected(Rejection rejection) {
      if (rejected++ == 0) {
        firstReason = rejection.reason();
      }
    }
  }
}
