package dev.tokentrace.bench;

import java.nio.file.Path;
import java.util.Arrays;

/** The command line of {@link FreshnessBench}. */
record Options(
    int[] rates,
    int files,
    int warmup,
    int seconds,
    String shipperOptions,
    Path out,
    String store,
    String reader,
    String exporterPoll) {
  static Options parse(String[] args) {
    int[] rates = {0, 1000, 20_000};
    int files = 4;
    int warmup = 10;
    int seconds = 30;
    String shipperOptions = "-Xmx1g"; // the tokentrace launcher's default
    Path out = Path.of("bench/target/freshness");
    String store = "duckdb";
    String reader = "lake";
    String exporterPoll = "1s";
    for (int i = 0; i + 1 < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--rates":
          rates = Arrays.stream(value.split(",")).mapToInt(Integer::parseInt).toArray();
          break;
        case "--files":
          files = Integer.parseInt(value);
          break;
        case "--warmup":
          warmup = Integer.parseInt(value);
          break;
        case "--seconds":
          seconds = Integer.parseInt(value);
          break;
        case "--shipper-opts":
          shipperOptions = value;
          break;
        case "--out":
          out = Path.of(value);
          break;
        case "--store":
          if (!value.equals("duckdb") && !value.equals("lake")) {
            throw new IllegalArgumentException("--store is duckdb or lake: " + value);
          }
          store = value;
          break;
        case "--reader":
          if (!value.equals("lake") && !value.equals("exporter")) {
            throw new IllegalArgumentException("--reader is lake or exporter: " + value);
          }
          reader = value;
          break;
        case "--exporter-poll":
          exporterPoll = value;
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (reader.equals("exporter")) {
      store = "lake"; // serve reads the lake live; a DuckDB file is held by its sink
    }
    return new Options(
        rates, files, warmup, seconds, shipperOptions, out, store, reader, exporterPoll);
  }
}
