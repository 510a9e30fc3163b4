package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * SGLang's {@code --export-metrics-to-file} output (v0.5.5.post3+,
 * docs/formats/sglang.md#metrics-export-file): one JSON object per finished request, {@code
 * {"request_parameters": "<JSON of the request>", <meta_info keys>}}, in {@code
 * <dir>/sglang-request-metrics-<YYYYmmdd_HH>.log}, a new file each local hour. Written with
 * Python's {@code json.dumps} separators.
 */
final class SglangMetricsWriter implements SimObserver, Closeable {
  private final Path dir;
  private final SglangMeta meta;
  private final WallClock clock;
  private @Nullable TextFile out;
  private String hour = "";

  SglangMetricsWriter(Path dir, OutputSettings output) {
    this.dir = dir;
    this.clock = new WallClock(output.start(), output.zone());
    this.meta = new SglangMeta(output.format(), clock);
  }

  @Override
  public void serverFinished(RequestView request, ServerView server) {
    String key = clock.hourKey(request.lastTokenUs());
    TextFile file = out;
    if (file == null || !key.equals(hour)) {
      close();
      file = TextFile.create(dir.resolve("sglang-request-metrics-" + key + ".log"));
      out = file;
      hour = key;
    }
    StringBuilder line = file.begin();
    DictText record = DictText.open(line, true);
    StringBuilder parameters = new StringBuilder(128);
    DictText fields = DictText.open(parameters, true);
    meta.requestFields(fields, request);
    fields.close();
    record.raw("request_parameters", "\"" + parameters.toString().replace("\"", "\\\"") + "\"");
    meta.metaInfo(record, request, false);
    record.close();
    file.end();
  }

  @Override
  public void close() {
    TextFile file = out;
    if (file != null) {
      file.close();
      out = null;
    }
  }
}
