package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The vLLM prefill/decode samples (samples/pd/vllm/, docs/formats/pd.md#samples): each is what the
 * command its SOURCE.md names writes now, byte for byte, and each server's files parse with no line
 * rejected, the decode servers' logs into KV transfer rows. {@code DemoIT} attributes them.
 */
final class PdSamplesTest {
  private static final Pattern COMMAND =
      Pattern.compile("- command: `tokentrace (simulate [^`]*)`");

  @TempDir Path work;

  static Stream<SampleScenarios.PdSample> samples() {
    // vLLM's; TensorRT-LLM's has PdTrtllmSampleTest
    List<SampleScenarios.PdSample> found =
        SampleScenarios.findPd(GoldenSamplesTest.SAMPLES).stream()
            .filter(sample -> sample.engine() == Engine.VLLM)
            .toList();
    assertThat(found).as("samples/pd/").isNotEmpty();
    return found.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("samples")
  void isWhatTheSimulatorWritesAndParses(SampleScenarios.PdSample sample) throws Exception {
    Matcher command = COMMAND.matcher(Files.readString(sample.dir().resolve("SOURCE.md")));
    assertThat(command.find()).as("SOURCE.md names its command").isTrue();
    List<String> args = new ArrayList<>(List.of(command.group(1).split(" ")));
    int out = args.indexOf("--out");
    Path again = work.resolve("again");
    args.set(out + 1, again.toString());
    CommandLine simulate = TokentraceMain.commandLine();
    StringWriter err = new StringWriter();
    simulate.setErr(new PrintWriter(err, true));
    assertThat(simulate.execute(args.toArray(String[]::new))).as(err.toString()).isZero();
    try (Stream<Path> files = Files.walk(sample.dir())) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path relative = sample.dir().relativize(file);
        if (relative.toString().equals("SOURCE.md")) {
          continue; // names the samples folder as --out, the regeneration a temporary one
        }
        assertThat(Files.readAllBytes(again.resolve(relative)))
            .as(relative + " as simulate writes it now")
            .isEqualTo(Files.readAllBytes(file));
      }
    }
    assertThat(sample.servers().keySet()).contains("prefill-0", "decode-0");
    ParseOptions parse = new ParseOptions();
    parse.engine = sample.engine().id();
    parse.year = Integer.valueOf(sample.properties().getProperty("year").strip());
    parse.zone = "UTC";
    for (var server : sample.servers().entrySet()) {
      parse.instance = sample.instance(server.getKey());
      AtomicLong events = new AtomicLong();
      AtomicLong transfers = new AtomicLong();
      List<String> rejected = new ArrayList<>();
      TailOutput output =
          new TailOutput() {
            @Override
            public void event(EngineEvent event) {
              events.incrementAndGet();
              if (event instanceof KvTransfer) {
                transfers.incrementAndGet();
              }
            }

            @Override
            public void rejected(Rejection rejection, byte[] rawLine) {
              rejected.add(rejection.toString());
            }
          };
      for (SourceFile file : SourceFiles.resolve(server.getValue(), parse)) {
        new SourceParser(
                file.path().toString(),
                file.engine(),
                Parsers.create(file.engine(), file.parse()),
                output)
            .readFile(file.path(), parse.maxLineBytes);
      }
      assertThat(rejected).as(server.getKey() + " rejected lines").isEmpty();
      assertThat(events.get()).as(server.getKey() + " events").isPositive();
      if (server.getKey().startsWith("decode")) {
        assertThat(transfers.get()).as(server.getKey() + " KV transfer rows").isPositive();
      }
    }
  }
}
