package dev.tokentrace.ingest.scrape;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Polls a Prometheus endpoint and appends each whole response, after a {@code # tokentrace scrape
 * <instant> <url>} line, to a file (docs/formats/metrics.md#saved-scrapes). Every request is
 * bounded (docs/live.md#limits-of-scrape): the body is read with flow control into a buffer of at
 * most {@link ScrapeLimits#maxBytes()} bytes, no line may pass {@link ScrapeLimits#maxLineBytes()},
 * and the whole request must end within {@link ScrapeLimits#deadline()}; a response that breaks a
 * limit is dropped whole, the connection closed, and one line says why. The calling thread never
 * blocks in I/O: it waits on the response with the deadline, and {@link #stop()} (SIGTERM) ends the
 * wait and the request at once.
 */
public final class MetricsScraper {
  private final URI url;
  private final ScrapeLimits limits;
  private final HttpClient client;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile @Nullable CompletableFuture<Void> inFlight;

  public MetricsScraper(URI url, ScrapeLimits limits) {
    this.url = requireNonNull(url, "url is null");
    this.limits = requireNonNull(limits, "limits is null");
    this.client = HttpClient.newBuilder().connectTimeout(limits.deadline()).build();
  }

  /** What {@link #run} did. */
  public record Summary(int ok, int failed, boolean stopped) {}

  /**
   * Scrapes {@code count} times (0: until {@link #stop()}), {@code interval} apart, appending each
   * good response to {@code file}; each failed scrape is one line to {@code problems}.
   */
  public Summary run(int count, Duration interval, OutputStream file, Consumer<String> problems)
      throws IOException {
    int ok = 0;
    int failed = 0;
    for (int done = 0; count == 0 || done < count; done++) {
      if (done > 0 && awaitStop(interval)) {
        break;
      }
      if (stopped.getCount() == 0) {
        break;
      }
      String problem = scrapeOnce(file);
      if (problem == null) {
        ok++;
      } else {
        failed++;
        problems.accept(url + ": " + problem);
      }
    }
    return new Summary(ok, failed, stopped.getCount() == 0);
  }

  /** Ends {@link #run} and any request in flight now (from another thread: a shutdown hook). */
  public void stop() {
    stopped.countDown();
    CompletableFuture<Void> current = inFlight;
    if (current != null) {
      current.completeExceptionally(new StoppedException());
    }
  }

  private boolean awaitStop(Duration interval) {
    try {
      return stopped.await(interval.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
      return true;
    }
  }

  /** One scrape appended to {@code file}; the problem in one line, or null. */
  @Nullable String scrapeOnce(OutputStream file) throws IOException {
    Instant at = Clock.systemUTC().instant().truncatedTo(ChronoUnit.MILLIS);
    CappedBody body = new CappedBody(limits);
    AtomicInteger status = new AtomicInteger();
    CompletableFuture<HttpResponse<Void>> response =
        client.sendAsync(
            HttpRequest.newBuilder(url).timeout(limits.deadline()).GET().build(),
            info -> {
              status.set(info.statusCode());
              return HttpResponse.BodySubscribers.fromSubscriber(body);
            });
    // connection errors complete the response; the body's end or refusal completes the body
    response.whenComplete(
        (r, e) -> {
          if (e != null) {
            body.done.completeExceptionally(e);
          }
        });
    inFlight = body.done;
    if (stopped.getCount() == 0) {
      body.done.completeExceptionally(new StoppedException());
    }
    try {
      body.done.get(limits.deadline().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return "no complete response within "
          + limits.deadline()
          + " (--interval is the whole request's deadline; "
          + body.received()
          + " bytes received); nothing appended";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop();
      return "interrupted; nothing appended";
    } catch (ExecutionException | CancellationException e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      if (cause instanceof RefusedException refused) {
        return refused.getMessage() + "; nothing appended";
      }
      if (cause instanceof StoppedException) {
        return "stopped (SIGTERM or Ctrl-C) during the scrape; nothing appended";
      }
      return "cannot scrape: " + describe(cause);
    } finally {
      // closes the connection of a request still running (deadline, refusal, stop)
      inFlight = null;
      body.cancel();
      response.cancel(true);
    }
    if (status.get() != 200) {
      return "HTTP " + status.get() + "; nothing appended";
    }
    file.write(("# tokentrace scrape " + at + " " + url + "\n").getBytes(UTF_8));
    body.bytes.writeTo(file);
    if (body.bytes.size() > 0 && !body.endsWithNewline) {
      file.write('\n');
    }
    file.flush();
    return null;
  }

  private static String describe(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getMessage() == null) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /** A response that broke a limit (the message says which). */
  private static final class RefusedException extends Exception {
    RefusedException(String message) {
      super(message, null, false, false);
    }
  }

  /** The scrape ended by {@link #stop()}. */
  private static final class StoppedException extends Exception {
    StoppedException() {
      super("stopped", null, false, false);
    }
  }

  /**
   * The body with flow control: one buffer list requested at a time, so the client never reads
   * ahead of what is checked; the byte and line caps are checked as the bytes arrive.
   */
  private static final class CappedBody implements Flow.Subscriber<List<ByteBuffer>> {
    private final ScrapeLimits limits;
    final CompletableFuture<Void> done = new CompletableFuture<>();
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private volatile Flow.@Nullable Subscription subscription;
    private volatile long received;
    private long line = 1;
    private long lineBytes;
    boolean endsWithNewline;

    CappedBody(ScrapeLimits limits) {
      this.limits = limits;
    }

    long received() {
      return received;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      if (done.isDone()) {
        s.cancel();
      } else {
        s.request(1);
      }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      if (done.isDone()) {
        cancel();
        return;
      }
      for (ByteBuffer buffer : buffers) {
        int length = buffer.remaining();
        if (received + length > limits.maxBytes()) {
          refuse(
              "response body longer than --max-bytes "
                  + limits.maxBytes()
                  + " bytes (refused after "
                  + received
                  + ")");
          return;
        }
        for (int i = buffer.position(); i < buffer.limit(); i++) {
          if (buffer.get(i) == '\n') {
            line++;
            lineBytes = 0;
          } else if (++lineBytes > limits.maxLineBytes()) {
            refuse(
                "line "
                    + line
                    + " of the response longer than --max-line-bytes "
                    + limits.maxLineBytes()
                    + " bytes");
            return;
          }
        }
        if (length > 0) {
          endsWithNewline = buffer.get(buffer.limit() - 1) == '\n';
        }
        byte[] chunk = new byte[length];
        buffer.get(chunk);
        bytes.write(chunk, 0, length);
        received += length;
      }
      Flow.Subscription s = subscription;
      if (s != null) {
        s.request(1);
      }
    }

    @Override
    public void onError(Throwable throwable) {
      done.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
      done.complete(null);
    }

    private void refuse(String message) {
      done.completeExceptionally(new RefusedException(message));
      cancel();
    }

    void cancel() {
      Flow.Subscription s = subscription;
      if (s != null) {
        s.cancel();
      }
    }
  }
}
