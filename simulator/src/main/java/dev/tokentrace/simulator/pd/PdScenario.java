package dev.tokentrace.simulator.pd;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One P/D setting (docs/formats/pd.md#simulator): the servers, their capacity and speed, the links
 * and the workload. Times in microseconds, rates per second. Requests arrive open-loop (Poisson);
 * the proxy sends each one round robin to a prefill server, then to a decode server.
 *
 * @param slowLinkPrefill the prefill server whose link to decode server 0 runs at {@code
 *     slowLinkGbps} (-1: none)
 */
public record PdScenario(
    String name,
    String description,
    long seed,
    int requests,
    double ratePerS,
    int prefillServers,
    int decodeServers,
    int prefillSlots,
    int decodeSlots,
    int minPrompt,
    int maxPrompt,
    int minOutput,
    int maxOutput,
    long prefillFixedUs,
    double prefillPerTokenUs,
    long decodeFirstUs,
    long decodePerTokenUs,
    long kvBytesPerToken,
    double linkGbps,
    int slowLinkPrefill,
    double slowLinkGbps,
    long networkUs,
    long networkJitterUs,
    long proxyUs,
    long maxClientQueueUs) {

  /** The four scenarios of issue [3.1]. */
  public static final List<PdScenario> ALL =
      List.of(
          new PdScenario(
              "transfer-bound",
              "a slow fabric: the KV transfer is the largest server component",
              31,
              400,
              4,
              1,
              1,
              8,
              16,
              1500,
              4000,
              16,
              64,
              4_000,
              12,
              20_000,
              15_000,
              131_072,
              40,
              -1,
              0,
              3_000,
              1_000,
              500,
              2_000),
          new PdScenario(
              "decode-saturated",
              "too few decode slots: requests queue on the decode server after their transfer",
              32,
              400,
              6,
              1,
              1,
              8,
              4,
              200,
              800,
              64,
              192,
              3_000,
              10,
              15_000,
              10_000,
              65_536,
              100,
              -1,
              0,
              3_000,
              1_000,
              500,
              2_000),
          new PdScenario(
              "prefill-saturated",
              "one prefill slot and long prompts: requests queue on the prefill server",
              33,
              400,
              7,
              1,
              1,
              1,
              64,
              2000,
              6000,
              8,
              32,
              5_000,
              18,
              15_000,
              8_000,
              65_536,
              200,
              -1,
              0,
              3_000,
              1_000,
              500,
              2_000),
          new PdScenario(
              "slow-link",
              "two prefill and two decode servers; the link from prefill-1 to decode-0 is slow",
              34,
              400,
              8,
              2,
              2,
              8,
              32,
              500,
              2000,
              16,
              96,
              3_000,
              10,
              15_000,
              10_000,
              131_072,
              200,
              1,
              20,
              3_000,
              1_000,
              500,
              2_000));

  private static final Map<String, PdScenario> BY_NAME =
      ALL.stream().collect(Collectors.toMap(PdScenario::name, Function.identity()));

  /** The scenario named {@code name}, or null. */
  public static @org.jspecify.annotations.Nullable PdScenario named(String name) {
    return BY_NAME.get(name);
  }

  /**
   * This scenario with {@code n} requests (the first {@code n} of the same arrivals: the seed's
   * random sequence is drawn per request, so a shorter run is a prefix of the longer one's
   * workload, not of its queues).
   */
  public PdScenario withRequests(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("requests must be >= 1: " + n);
    }
    return new PdScenario(
        name,
        description,
        seed,
        n,
        ratePerS,
        prefillServers,
        decodeServers,
        prefillSlots,
        decodeSlots,
        minPrompt,
        maxPrompt,
        minOutput,
        maxOutput,
        prefillFixedUs,
        prefillPerTokenUs,
        decodeFirstUs,
        decodePerTokenUs,
        kvBytesPerToken,
        linkGbps,
        slowLinkPrefill,
        slowLinkGbps,
        networkUs,
        networkJitterUs,
        proxyUs,
        maxClientQueueUs);
  }

  /** The bandwidth of the link from prefill server {@code p} to decode server {@code d}. */
  double gbps(int p, int d) {
    return p == slowLinkPrefill && d == 0 ? slowLinkGbps : linkGbps;
  }
}
