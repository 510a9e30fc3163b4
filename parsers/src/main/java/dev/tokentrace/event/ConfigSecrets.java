package dev.tokentrace.event;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secrets from configuration values before they are stored: launch arguments carry {@code
 * --api-key}, Hugging Face tokens, passwords and URLs with credentials
 * (docs/formats/vllm.md#secrets-in-launch-arguments). A value whose key names a secret is replaced
 * whole; inside any other value (a nested dict or config object), a secret-named entry's value, the
 * user-info part of a URL and strings shaped like well-known tokens are replaced by {@value
 * #REDACTED}. Pure and thread-safe.
 */
public final class ConfigSecrets {
  public static final String REDACTED = "[redacted]";

  /** A key naming a secret: the whole word or its last {@code _}/{@code -} part. */
  private static final Pattern SECRET_KEY =
      Pattern.compile(
          "(?:^|[_.-])(?:api[_-]?keys?|apikey|(?:access|secret|private|signing)[_-]?key|token|"
              + "secrets?|password|passwd|credentials?|authorization|auth|cookie)$");

  /** {@code 'api_key': 'x'}, {@code api_key='x'}, {@code "token":"x"} inside a larger value. */
  private static final Pattern NESTED =
      Pattern.compile(
          "(['\"]?)([A-Za-z0-9_.-]+)\\1(\\s*[:=]\\s*)('[^']*'|\"[^\"]*\"|[^,)}\\]\\s]+)");

  /** {@code scheme://user:password@host}: the user info goes. */
  private static final Pattern URL_USERINFO =
      Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/@\\s'\"]+@");

  /** Token shapes worth catching wherever they appear (OpenAI-style, Hugging Face, GitHub). */
  private static final Pattern TOKEN_SHAPE =
      Pattern.compile("\\b(?:sk-[A-Za-z0-9_-]{6,}|hf_[A-Za-z0-9]{10,}|gh[pousr]_[A-Za-z0-9]{20,})");

  private ConfigSecrets() {}

  /** Whether a setting of this name holds a secret ({@code api_key}, {@code hf_token}, ...). */
  public static boolean isSecretKey(String key) {
    String lower = key.trim().toLowerCase(Locale.ROOT);
    if (lower.startsWith("--")) {
      lower = lower.substring(2);
    }
    return SECRET_KEY.matcher(lower).find();
  }

  /** The value with every secret replaced; unchanged when there is none. */
  public static String redact(String key, String value) {
    if (isSecretKey(key)) {
      return isUnset(value) ? value : REDACTED;
    }
    return redactInside(value);
  }

  /** Secrets inside a free-form value (nested entries, URL credentials, token shapes). */
  public static String redactInside(String value) {
    String out = value;
    if (out.indexOf(':') >= 0 || out.indexOf('=') >= 0) {
      Matcher nested = NESTED.matcher(out);
      StringBuilder kept = new StringBuilder();
      while (nested.find()) {
        String replacement =
            isSecretKey(nested.group(2)) && !isUnset(stripQuotes(nested.group(4)))
                ? nested.group(1)
                    + nested.group(2)
                    + nested.group(1)
                    + nested.group(3)
                    + "'"
                    + REDACTED
                    + "'"
                : nested.group();
        nested.appendReplacement(kept, Matcher.quoteReplacement(replacement));
      }
      nested.appendTail(kept);
      out = kept.toString();
    }
    if (out.contains("://")) {
      out = URL_USERINFO.matcher(out).replaceAll("$1" + Matcher.quoteReplacement(REDACTED) + "@");
    }
    return TOKEN_SHAPE.matcher(out).replaceAll(Matcher.quoteReplacement(REDACTED));
  }

  /** {@code None}, {@code null}, empty: nothing to hide, and worth knowing that it is unset. */
  private static boolean isUnset(String value) {
    String v = value.trim();
    return v.isEmpty() || v.equals("None") || v.equals("null") || v.equals("[]") || v.equals("{}");
  }

  private static String stripQuotes(String value) {
    if (value.length() >= 2
        && (value.charAt(0) == '\'' || value.charAt(0) == '"')
        && value.charAt(value.length() - 1) == value.charAt(0)) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }
}
