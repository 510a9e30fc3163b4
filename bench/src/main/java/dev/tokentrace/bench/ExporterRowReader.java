package dev.tokentrace.bench;

import dev.tokentrace.cli.TokentraceMain;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Line written → visible in the exporter ({@code bench/exporter-freshness.sh}): {@code tokentrace
 * serve --lake} runs as its own process (as deployed) and this reader scrapes its {@code /metrics}
 * every {@value #SCRAPE_MS} ms, as a Prometheus with a very short interval would. Each file is its
 * own instance ({@code ship --instance-from file}), and its lines reach the lake in order (one
 * file, one Kafka partition key, offset-ordered commits), so when {@code
 * tokentrace_store_event_rows{server_instance="server-F"}} first shows {@code n}, the file's first
 * {@code n} lines are visible: their serials are noted seen at that scrape.
 */
final class ExporterRowReader implements SeenRows {
  static final int SCRAPE_MS = 50;
  private static final Pattern ROWS =
      Pattern.compile(
          "(?m)^tokentrace_store_event_rows\\{[^}]*server_instance=\"server-(\\d+)\"[^}]*\\} (\\S+)$");
  private static final Pattern LISTENING = Pattern.compile("http://[^:]+:(\\d+)/metrics");

  private final Path lake;
  private final Path dir;
  private final int files;
  private final String pollInterval;
  private final String jvmOptions;
  private final Freshness freshness;
  private final long[] visible;
  private final Thread thread = new Thread(this::run, "bench-exporter-reader");
  private Process serve;
  private volatile boolean stop;
  private volatile long seen;
  private volatile long failedScrapes;
  private volatile Exception failure;

  ExporterRowReader(
      Path lake, Path dir, int files, String pollInterval, String jvmOptions, Freshness freshness) {
    this.lake = lake;
    this.dir = dir;
    this.files = files;
    this.pollInterval = pollInterval;
    this.jvmOptions = jvmOptions;
    this.freshness = freshness;
    this.visible = new long[files];
  }

  @Override
  public void start() {
    thread.start();
  }

  @Override
  public long seen() {
    return seen;
  }

  @Override
  public @Nullable Exception failure() {
    return failure;
  }

  /** The serial of the k-th line (1-based) of file f: {@link LineWriter} writes round-robin. */
  long serial(int file, long k) {
    return file == 0 ? k * files : file + (k - 1) * files;
  }

  private void run() {
    try {
      while (!stop && !Files.exists(lake.resolve("_tokentrace_lake.json"))) {
        Thread.sleep(100); // serve needs a lake: the sink creates it when it starts
      }
      int port = startServe();
      HttpClient client = HttpClient.newHttpClient();
      HttpRequest request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
              .timeout(Duration.ofSeconds(10))
              .build();
      while (!stop) {
        Thread.sleep(SCRAPE_MS);
        String body;
        try {
          body = client.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (java.io.IOException e) {
          failedScrapes++; // a scrape timing out on a loaded machine: the next one will tell
          continue;
        }
        long now = System.nanoTime();
        Matcher matcher = ROWS.matcher(body);
        long total = 0;
        while (matcher.find()) {
          int file = Integer.parseInt(matcher.group(1));
          long rows = (long) Double.parseDouble(matcher.group(2));
          if (file < files) {
            for (long k = visible[file] + 1; k <= rows; k++) {
              freshness.seen(serial(file, k), now);
            }
            visible[file] = Math.max(visible[file], rows);
          }
        }
        for (long rows : visible) {
          total += rows;
        }
        seen = total;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failure = e;
    }
  }

  private int startServe() throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(jvmOptions.split(" ")));
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.add(TokentraceMain.class.getName());
    command.addAll(
        List.of(
            "serve", "--lake", lake.toString(), "--port", "0", "--poll-interval", pollInterval));
    Path out = dir.resolve("serve.out");
    serve =
        new ProcessBuilder(command)
            .redirectError(dir.resolve("serve.err").toFile())
            .redirectOutput(out.toFile())
            .start();
    long deadline =
        System.nanoTime()
            + Duration.ofSeconds(300).toNanos(); // a loaded machine starts JVMs slowly
    while (System.nanoTime() < deadline) {
      if (Files.exists(out)) {
        Matcher matcher = LISTENING.matcher(Files.readString(out));
        if (matcher.find()) {
          return Integer.parseInt(matcher.group(1));
        }
      }
      if (!serve.isAlive()) {
        throw new IllegalStateException(
            "serve exited: " + Files.readString(dir.resolve("serve.err")));
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("serve did not start");
  }

  /** Scrapes that failed (timed out): reported beside the figures. */
  long failedScrapes() {
    return failedScrapes;
  }

  /** The exporter's process, once started (for its CPU), or null. */
  Process serveProcess() {
    return serve;
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    thread.join();
    System.err.println("  exporter scrapes that failed (timed out): " + failedScrapes);
    if (serve != null) {
      serve.destroy();
      serve.waitFor();
    }
  }
}
