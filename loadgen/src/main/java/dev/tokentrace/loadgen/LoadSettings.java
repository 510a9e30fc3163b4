package dev.tokentrace.loadgen;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One load run. Fixed concurrency when {@code rate} is null ({@code concurrency} workers, each
 * sending its next request when the previous one ended); otherwise a fixed rate with {@code
 * arrival} gaps, at most {@code concurrency} in flight (0 = no cap; the wait for a slot is the
 * client queue).
 *
 * @param requests measured requests, or {@link Plan#UNLIMITED}
 * @param duration how long to issue measured requests, or null
 * @param sglangRid also put the ID in the body as SGLang's {@code rid}
 * @param timeout per request, until the response headers arrive
 * @param itlOut optional file of per-request inter-token latencies
 */
public record LoadSettings(
    URI url,
    Endpoint endpoint,
    String model,
    int promptTokens,
    int maxTokens,
    int concurrency,
    @Nullable Double rate,
    Arrivals.Kind arrival,
    long requests,
    @Nullable Duration duration,
    int warmup,
    String idPrefix,
    boolean sglangRid,
    Duration timeout,
    long seed,
    Path out,
    @Nullable Path itlOut) {
  /** Prefixes that keep IDs safe in headers, CSV and every engine's log line. */
  static final Pattern ID_PREFIX = Pattern.compile("[A-Za-z0-9._:-]{0,100}");

  public LoadSettings {
    requireNonNull(url, "url is null");
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(model, "model is null");
    requireNonNull(arrival, "arrival is null");
    requireNonNull(idPrefix, "idPrefix is null");
    requireNonNull(timeout, "timeout is null");
    requireNonNull(out, "out is null");
    List<String> problems = new ArrayList<>();
    check(
        problems,
        url.getScheme() != null && url.getScheme().startsWith("http"),
        "--url must be an http(s) URL: " + url);
    check(problems, promptTokens >= 1, "--prompt-tokens must be >= 1: " + promptTokens);
    check(problems, maxTokens >= 1, "--max-tokens must be >= 1: " + maxTokens);
    check(
        problems,
        concurrency >= (rate == null ? 1 : 0),
        "--concurrency must be >= " + (rate == null ? 1 : 0) + ": " + concurrency);
    check(
        problems, rate == null || (rate > 0 && !rate.isInfinite()), "--rate must be > 0: " + rate);
    check(problems, requests >= 0, "--requests must be >= 0: " + requests);
    check(
        problems,
        duration == null || !duration.isNegative() && !duration.isZero(),
        "--duration must be > 0");
    check(
        problems,
        requests != Plan.UNLIMITED || duration != null,
        "give --requests or --duration (or both)");
    check(problems, warmup >= 0, "--warmup must be >= 0: " + warmup);
    check(
        problems,
        ID_PREFIX.matcher(idPrefix).matches(),
        "--id-prefix must match " + ID_PREFIX.pattern() + ": '" + idPrefix + "'");
    check(problems, !timeout.isNegative() && !timeout.isZero(), "--timeout must be > 0");
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("\n", problems));
    }
  }

  private static void check(List<String> problems, boolean ok, String problem) {
    if (!ok) {
      problems.add(problem);
    }
  }

  /** The endpoint's full URI. */
  URI target() {
    String base = url.toString();
    if (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(base + endpoint.path());
  }
}
