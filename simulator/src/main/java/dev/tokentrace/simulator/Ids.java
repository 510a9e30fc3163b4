package dev.tokentrace.simulator;

/** Deterministic bit mixing and hex formatting for IDs derived from the seed. */
public final class Ids {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Ids() {}

  /** The SplitMix64 finalizer: a bijection that spreads every input bit over the output. */
  public static long mix(long value) {
    long z = value + 0x9e3779b97f4a7c15L;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** The low {@code digits * 4} bits of {@code bits} as lower-case hex, zero-padded. */
  public static String hex(long bits, int digits) {
    char[] out = new char[digits];
    for (int i = digits - 1; i >= 0; i--) {
      out[i] = HEX[(int) (bits & 0xf)];
      bits >>>= 4;
    }
    return new String(out);
  }

  /** 32 hex digits from two longs (a UUID without dashes, like Python's {@code uuid4().hex}). */
  public static String hex32(long high, long low) {
    return hex(high, 16) + hex(low, 16);
  }

  /** A version-4 UUID string from 128 random bits. */
  public static String uuid(long high, long low) {
    long h = (high & ~0xf000L) | 0x4000L;
    long l = (low & 0x3fffffffffffffffL) | 0x8000000000000000L;
    String text = hex32(h, l);
    return text.substring(0, 8)
        + "-"
        + text.substring(8, 12)
        + "-"
        + text.substring(12, 16)
        + "-"
        + text.substring(16, 20)
        + "-"
        + text.substring(20);
  }
}
