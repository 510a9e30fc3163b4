package dev.tokentrace.parse.gpu;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.GpuProcess;
import dev.tokentrace.event.GpuSample;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.GpuMap;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.parse.exposition.ExpositionParser;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * GPU telemetry files (docs/formats/gpu.md): nvidia-smi query CSV (GPUs and compute apps), dmon and
 * pmon tables, and DCGM exporter text, told apart line by line so that one file may hold several (a
 * loop restarted with other options). Every event is stamped with the instance the file's GPUs
 * serve. One instance per source; not thread-safe.
 */
public final class GpuLineParser implements LineParser {
  static final String BLANK = "gpu: blank line";
  static final String CSV_HEADER = "gpu: csv header";
  static final String DMON_HEADER = "gpu: dmon/pmon header";
  static final String METADATA = "gpu: exposition metadata";
  static final String NO_PROCESS = "gpu: no process on this gpu";
  private static final String STATE_CSV = "csv ";
  private static final String STATE_DMON = "dmon ";

  /** nvidia-smi's messages for a GPU that fell off the bus or a driver it cannot reach. */
  private static final String[] LOST = {
    "Unable to determine the device handle",
    "GPU is lost",
    "No devices were found",
    "NVIDIA-SMI has failed",
    "Unable to query"
  };

  private final String instance;
  private final QueryCsv csv;
  private final DmonTable dmon;
  private final DcgmScrape dcgm;
  private final GpuMap gpuMap;
  private @Nullable Instant lastTs;
  private @Nullable String stateCsv;
  private @Nullable String stateDmon;
  private @Nullable String state;

  public GpuLineParser(ParseSettings settings) {
    this.instance = settings.instance();
    this.csv = new QueryCsv(settings.instance(), settings.zone());
    this.dmon = new DmonTable(settings.instance(), settings.zone());
    this.dcgm = new DcgmScrape(settings.instance());
    this.gpuMap = settings.gpuMap();
  }

  @Override
  public void parse(String line, SourcePosition position, ParseOutput output) {
    ParseOutput sink = mapped(output);
    String text = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    String stripped = text.strip();
    if (stripped.isEmpty()) {
      sink.ignored(position, BLANK);
    } else if (stripped.startsWith("#")) {
      comment(text, stripped, position, sink);
    } else if (stripped.startsWith("DCGM_")) {
      exposition(text, position, sink);
    } else if (lost(stripped)) {
      sink.event(
          new ServerNotice(
              Engine.GPU,
              instance,
              lastTs,
              position,
              "ERROR",
              ServerNotice.Kind.ERROR,
              "nvidia-smi: " + stripped));
    } else if (stripped.equals("No running processes found")) {
      sink.ignored(position, NO_PROCESS);
    } else if (stripped.indexOf(',') >= 0) {
      if (csv.header(stripped)) {
        sink.ignored(position, CSV_HEADER);
      } else {
        List<String> problems = new ArrayList<>();
        emit(csv.row(stripped, position, problems), problems, "csv", text, position, sink);
      }
    } else if (dmon.active()) {
      List<String> problems = new ArrayList<>();
      EngineEvent event = dmon.row(stripped, position, problems);
      if (event == null && problems.isEmpty()) {
        sink.ignored(position, NO_PROCESS);
      } else {
        emit(event, problems, "dmon", text, position, sink);
      }
    } else {
      reject(position, "not nvidia-smi or DCGM exporter output", text, sink);
    }
  }

  private void comment(String text, String stripped, SourcePosition position, ParseOutput sink) {
    if (stripped.startsWith("# HELP ") || stripped.startsWith("# TYPE ")) {
      String name = stripped.substring(7).strip();
      if (name.startsWith("DCGM_")) {
        sink.ignored(position, METADATA);
      } else {
        reject(position, "dcgm: not a DCGM exporter metric", text, sink);
      }
    } else if (dmon.header(stripped)) {
      sink.ignored(position, DMON_HEADER);
    } else {
      reject(position, "unknown comment line", text, sink);
    }
  }

  private void exposition(String text, SourcePosition position, ParseOutput sink) {
    ExpositionParser.Result result = ExpositionParser.parse(text);
    if (result instanceof ExpositionParser.Invalid invalid) {
      reject(position, "dcgm: " + invalid.reason(), text, sink);
    } else if (result instanceof ExpositionParser.Sample sample) {
      String field = sample.line().name();
      double value = sample.line().value();
      if (!DcgmScrape.used(field)) {
        sink.ignored(position, DcgmScrape.UNUSED);
      } else if (!Double.isFinite(value) || value < 0) {
        reject(position, "dcgm: " + field + " is " + value, text, sink);
      } else if (value >= DcgmScrape.BLANK_FLOOR) {
        sink.ignored(position, DcgmScrape.BLANK);
      } else {
        dcgm.accept(sample.line(), position, sink);
      }
    } else {
      throw new IllegalStateException("unhandled exposition line: " + result);
    }
  }

  private void emit(
      @Nullable EngineEvent event,
      List<String> problems,
      String kind,
      String text,
      SourcePosition position,
      ParseOutput sink) {
    if (event == null) {
      reject(position, kind + ": " + String.join("; ", problems), text, sink);
      return;
    }
    if (event.ts() != null) {
      lastTs = event.ts();
    }
    sink.event(event);
  }

  private static boolean lost(String text) {
    for (String message : LOST) {
      if (text.contains(message)) {
        return true;
      }
    }
    return false;
  }

  private static void reject(
      SourcePosition position, String reason, String text, ParseOutput sink) {
    sink.rejected(Rejection.of(position, Engine.GPU, reason, text));
  }

  /**
   * The current query CSV header and dmon/pmon column line, one per line, each after its kind
   * ({@code csv }, {@code dmon }): a follower resumed after a restart reads the rows that follow
   * with them, as an uninterrupted one would (docs/formats/gpu.md#following-across-restarts).
   */
  @Override
  public @Nullable String state() {
    String csvHeader = csv.headerLine();
    String dmonHeader = dmon.columnLine();
    // asked after every line by a follower: built again only when a header changed
    if (csvHeader != stateCsv || dmonHeader != stateDmon) {
      stateCsv = csvHeader;
      stateDmon = dmonHeader;
      StringBuilder text = new StringBuilder();
      if (csvHeader != null) {
        text.append(STATE_CSV).append(csvHeader).append('\n');
      }
      if (dmonHeader != null) {
        text.append(STATE_DMON).append(dmonHeader).append('\n');
      }
      state = text.length() == 0 ? null : text.toString();
    }
    return state;
  }

  /** Takes the headers of {@link #state()} back; a part it does not know is left out. */
  @Override
  public void resume(String state) {
    for (String part : state.split("\n")) {
      if (part.startsWith(STATE_CSV)) {
        csv.header(part.substring(STATE_CSV.length()));
      } else if (part.startsWith(STATE_DMON)) {
        dmon.header(part.substring(STATE_DMON.length()));
      }
    }
  }

  @Override
  public void finish(ParseOutput sink) {
    dcgm.flush(mapped(sink));
  }

  /**
   * The output with each GPU's events stamped with the instance {@code --gpu-map} gives its GPU
   * (docs/formats/gpu.md#one-file-several-instances); unmapped GPUs keep the file's instance.
   */
  private ParseOutput mapped(ParseOutput sink) {
    if (gpuMap.isEmpty()) {
      return sink;
    }
    return new ParseOutput() {
      @Override
      public void event(EngineEvent event) {
        if (event instanceof GpuSample sample) {
          sink.event(
              sample.withInstance(
                  gpuMap.instanceOf(sample.gpuIndex(), sample.gpuUuid(), sample.instance())));
        } else if (event instanceof GpuProcess process) {
          sink.event(
              process.withInstance(
                  gpuMap.instanceOf(process.gpuIndex(), process.gpuUuid(), process.instance())));
        } else {
          sink.event(event);
        }
      }

      @Override
      public void ignored(SourcePosition position, String rule) {
        sink.ignored(position, rule);
      }

      @Override
      public void rejected(Rejection rejection) {
        sink.rejected(rejection);
      }
    };
  }
}
