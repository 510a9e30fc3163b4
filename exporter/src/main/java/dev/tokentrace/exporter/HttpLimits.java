package dev.tokentrace.exporter;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The limits of {@code serve}'s HTTP server against slow and hostile clients
 * (docs/live.md#limits-of-serve). The JDK's server ({@code com.sun.net.httpserver}, which the
 * Prometheus client's {@code HTTPServer} runs on) reads a request's line and headers on a thread of
 * its executor, blocking; the client library's default executor has 10 threads and blocks the
 * accepting thread when they are busy, so a dozen clients trickling headers held every scrape.
 * Here:
 *
 * <ul>
 *   <li>a bounded executor of {@value #THREADS} threads without a queue: a connection that finds
 *       them all busy is closed at once (the JDK closes a connection whose task the executor
 *       refuses), never queued behind slow ones;
 *   <li>a read deadline: a connection whose request line and headers have not all arrived within
 *       {@value #REQUEST_SECONDS} s is closed ({@code sun.net.httpserver.maxReqTime}), and one
 *       whose response is not taken within {@value #RESPONSE_SECONDS} s too ({@code
 *       sun.net.httpserver.maxRspTime}). The JDK reads these system properties once, when its
 *       server class is first loaded; a value given with {@code -D} is kept.
 * </ul>
 */
public final class HttpLimits {
  /** Threads reading and answering requests at once. */
  public static final int THREADS = 64;

  /** Seconds a client has to send its request line and headers. */
  public static final int REQUEST_SECONDS = 5;

  /** Seconds a client has to take the response. */
  public static final int RESPONSE_SECONDS = 30;

  private HttpLimits() {}

  /** Sets the JDK server's deadlines, unless given on the command line; call before it starts. */
  static void applyDeadlines() {
    setIfAbsent("sun.net.httpserver.maxReqTime", Integer.toString(REQUEST_SECONDS));
    setIfAbsent("sun.net.httpserver.maxRspTime", Integer.toString(RESPONSE_SECONDS));
  }

  private static void setIfAbsent(String name, String value) {
    if (System.getProperty(name) == null) {
      System.setProperty(name, value);
    }
  }

  /** The bounded executor: {@value #THREADS} daemon threads at most, no queue. */
  static ExecutorService executor() {
    AtomicInteger number = new AtomicInteger();
    ThreadFactory threads =
        runnable -> {
          Thread thread = new Thread(runnable, "tokentrace-serve-http-" + number.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            threads,
            new ThreadPoolExecutor.AbortPolicy());
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }
}
