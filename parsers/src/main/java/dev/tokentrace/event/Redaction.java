package dev.tokentrace.event;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The one redaction of everything tokentrace stores or prints from its input: event text (notice
 * messages, configuration values, abort reasons), rejects (reason, excerpt, the rejects topic's
 * value), client error texts and the messages that echo a line. {@link #apply} removes prompt and
 * response text ({@link UserText}, docs/privacy.md#redaction-rule), then secrets
 * (docs/privacy.md#secrets): a value whose key or flag names a secret ({@code api_key='x'}, {@code
 * "token": "x"}, {@code --api-key x}, {@code --hf-token=x}, {@code HF_TOKEN=x}, {@code
 * Authorization: Bearer x}), the user info of a URL, a private-key block, and strings shaped like
 * well-known credentials ({@code AKIA…}, {@code AIza…}, {@code sk-…}, {@code hf_…}, {@code ghp_…},
 * JWTs). What a secret leaves is {@value #REDACTED}; the key, the flag and an authorization scheme
 * stay, so a reader still sees that one was set. Pure and thread-safe; applying it twice gives the
 * same text.
 */
public final class Redaction {
  public static final String REDACTED = "[redacted]";

  /**
   * The last word of a key naming a secret, written without separators ({@code api_key}, {@code
   * api-key}, {@code apiKey} and {@code API_KEY} all end in {@code apikey}).
   */
  private static final List<String> SECRET_SUFFIXES =
      List.of(
          "apikey",
          "apikeys",
          "accesskey",
          "secretkey",
          "privatekey",
          "signingkey",
          "accountkey",
          "sharedaccesskey",
          "subscriptionkey",
          "masterkey",
          "encryptionkey",
          "token",
          "secret",
          "secrets",
          "password",
          "passwd",
          "passphrase",
          "credential",
          "credentials",
          "authorization",
          "auth",
          "cookie",
          "signature",
          "connectionstring");

  /** Keys that name a secret only as a whole word: the signature of an Azure SAS URL. */
  private static final List<String> SECRET_WORDS = List.of("sig");

  /** The value after a key: an authorization scheme with its credentials, a string, a list. */
  private static final String VALUE =
      "(?<scheme>(?i:bearer|basic|token|digest|negotiate|apikey)\\s+)(?<cred>\\[redacted]|[^\\s,;'\"&)}\\]]+)"
          + "|\\\\[\"'].*?\\\\[\"']"
          + "|\"(?:[^\"\\\\]|\\\\.)*\"?"
          + "|'(?:[^'\\\\]|\\\\.)*'?"
          + "|\\[[^\\]]*\\]?"
          + "|\\{[^}]*\\}?"
          + "|[^\\s,;&'\"(){}\\[\\]<>]+";

  /**
   * {@code key=value}, {@code key: value}, {@code 'key': 'value'}, {@code "key":"value"}, {@code
   * \"key\": \"value\"} (JSON inside a JSON string), {@code --flag=value}.
   */
  private static final Pattern KEY_VALUE =
      Pattern.compile(
          "(?<q>\\\\?[\"']?)(?<key>[A-Za-z][A-Za-z0-9_.-]*)\\k<q>(?<sep>\\s*[:=]\\s*)(?<value>"
              + VALUE
              + ")");

  /**
   * {@code --api-key value} and the argv list form {@code '--api-key', 'value'}: a flag naming a
   * secret, then its value (not another flag).
   */
  private static final Pattern FLAG_VALUE =
      Pattern.compile(
          "(?<![A-Za-z0-9_-])(?<key>--?[A-Za-z][A-Za-z0-9_.-]*)"
              + "(?<sep>\\s+|(?<oq>['\"])\\s*,\\s*\\k<oq>)"
              + "(?<value>'(?:[^'\\\\]|\\\\.)*'?|\"(?:[^\"\\\\]|\\\\.)*\"?|[^\\s'\"-][^\\s'\"]*)");

  /** {@code curl -u user:password}, {@code --user user:password}. */
  private static final Pattern USER_FLAG =
      Pattern.compile("(?<![A-Za-z0-9_-])(-u|--user)(\\s+|=)([^\\s:'\"]+:[^\\s'\"]+)");

  /** {@code Bearer x} or {@code Basic x} outside a key (a header quoted in free text). */
  private static final Pattern SCHEME =
      Pattern.compile("\\b(?<scheme>(?i:bearer)|Basic)(?<sep>\\s+)(?<cred>[A-Za-z0-9._~+/-]+=*)");

  /** {@code scheme://user:password@host}: the user info goes. */
  private static final Pattern URL_USERINFO =
      Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/@\\s'\"]+@");

  /** A PEM private key (a GCP service-account file's {@code private_key}, a TLS key). */
  private static final Pattern PRIVATE_KEY =
      Pattern.compile(
          "-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----.*?(?:-----END \\1PRIVATE KEY-----|$)",
          Pattern.DOTALL);

  /**
   * Credentials recognisable by their shape alone, wherever they appear: AWS access key IDs, Google
   * API keys and OAuth tokens, OpenAI and Anthropic keys ({@code sk-}, {@code sk-proj-}), Hugging
   * Face tokens, GitHub, GitLab, Slack, Stripe, npm and PyPI tokens, and JWTs. The formats are
   * listed with their public sources in docs/privacy.md#secrets.
   */
  private static final Pattern TOKEN_SHAPE =
      Pattern.compile(
          "\\b(?:(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}\\b"
              + "|AIza[0-9A-Za-z_-]{35}"
              + "|ya29\\.[0-9A-Za-z_-]{20,}"
              + "|sk-[A-Za-z0-9_-]{16,}"
              + "|hf_[A-Za-z0-9]{20,}"
              + "|gh[pousr]_[A-Za-z0-9]{20,}"
              + "|github_pat_[A-Za-z0-9_]{20,}"
              + "|glpat-[A-Za-z0-9_-]{20,}"
              + "|xox[abposr]-[A-Za-z0-9-]{10,}"
              + "|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"
              + "|npm_[A-Za-z0-9]{36}\\b"
              + "|pypi-AgE[A-Za-z0-9_-]{20,}"
              + "|eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*)");

  /** A number: kept after a {@code token} key, where it is a count or a token id. */
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?");

  private static final Pattern CAPITALISED_WORD = Pattern.compile("[A-Z][a-z]+");

  private Redaction() {}

  /**
   * {@code text} without user text and without secrets; the same instance when there is neither.
   */
  public static String apply(String text) {
    return secrets(UserText.redact(text));
  }

  /**
   * A configuration value as stored: replaced whole when its key names a secret (unless unset:
   * {@code None} stays visible), else {@link #apply}.
   */
  public static String configValue(String key, String value) {
    if (isSecretKey(key)) {
      return isUnset(value) ? value : REDACTED;
    }
    return apply(value);
  }

  /**
   * Whether a setting, flag or variable of this name holds a secret ({@code api_key}, {@code
   * --hf-token}, {@code OPENAI_API_KEY}, {@code AccountKey}, ...).
   */
  public static boolean isSecretKey(String key) {
    String lower = key.strip().toLowerCase(Locale.ROOT);
    if (SECRET_WORDS.contains(lower)) {
      return true;
    }
    StringBuilder word = new StringBuilder(lower.length());
    for (int i = 0; i < lower.length(); i++) {
      char c = lower.charAt(i);
      if (c != '_' && c != '-' && c != '.') {
        word.append(c);
      }
    }
    String joined = word.toString();
    for (String suffix : SECRET_SUFFIXES) {
      if (joined.endsWith(suffix)) {
        return true;
      }
    }
    return false;
  }

  /** {@code text} with every secret replaced; the same instance when there is none. */
  public static String secrets(String text) {
    if (text.length() < 8) {
      return text;
    }
    String out = text;
    if (out.contains("PRIVATE KEY-----")) {
      out =
          PRIVATE_KEY
              .matcher(out)
              .replaceAll(
                  m ->
                      Matcher.quoteReplacement(
                          "-----BEGIN "
                              + m.group(1)
                              + "PRIVATE KEY-----"
                              + REDACTED
                              + (m.group().endsWith("-----END " + m.group(1) + "PRIVATE KEY-----")
                                  ? "-----END " + m.group(1) + "PRIVATE KEY-----"
                                  : "")));
    }
    if (out.indexOf(':') >= 0 || out.indexOf('=') >= 0) {
      out = replace(KEY_VALUE, out);
    }
    if (out.indexOf('-') >= 0) {
      out = replace(FLAG_VALUE, out);
      out = USER_FLAG.matcher(out).replaceAll("$1$2" + Matcher.quoteReplacement(REDACTED));
    }
    if (out.contains("earer") || out.contains("EARER") || out.contains("Basic")) {
      out = SCHEME.matcher(out).replaceAll(Redaction::scheme);
    }
    if (out.contains("://")) {
      out = URL_USERINFO.matcher(out).replaceAll("$1" + Matcher.quoteReplacement(REDACTED) + "@");
    }
    Matcher shape = TOKEN_SHAPE.matcher(out);
    if (shape.find()) {
      out = shape.replaceAll(Matcher.quoteReplacement(REDACTED));
    }
    return out.equals(text) ? text : out;
  }

  /**
   * Replaces the value of every match whose key names a secret. After a key that names none, the
   * search goes on right after its separator: its value may hold a key of its own ({@code failed:
   * x-api-key: v}, {@code 'cmd': '--api-key v'}).
   */
  private static String replace(Pattern pattern, String text) {
    Matcher matcher = pattern.matcher(text);
    StringBuilder out = null;
    int copied = 0;
    int from = 0;
    while (from < text.length() && matcher.find(from)) {
      String key = matcher.group("key");
      String value = matcher.group("value");
      if (isSecretKey(key) && !kept(key, value) && !REDACTED.equals(groupOrNull(matcher, "cred"))) {
        if (out == null) {
          out = new StringBuilder(text.length());
        }
        String quote = groupOrNull(matcher, "q");
        quote = quote == null ? "" : quote;
        out.append(text, copied, matcher.start())
            .append(quote)
            .append(key)
            .append(quote)
            .append(matcher.group("sep"))
            .append(redactedValue(matcher, value));
        copied = matcher.end();
        from = matcher.end();
      } else {
        from = matcher.end("sep");
      }
    }
    return out == null ? text : out.append(text, copied, text.length()).toString();
  }

  /** The value's replacement in the value's own quoting; an authorization scheme word stays. */
  private static String redactedValue(Matcher matcher, String value) {
    String scheme = groupOrNull(matcher, "scheme");
    if (scheme != null) {
      return scheme + REDACTED;
    }
    if (value.startsWith("\\\"") || value.startsWith("\\'")) {
      String quote = value.substring(0, 2);
      return quote + REDACTED + quote;
    }
    if (value.startsWith("\"") || value.startsWith("'")) {
      return value.charAt(0) + REDACTED + value.charAt(0);
    }
    return REDACTED;
  }

  private static @Nullable String groupOrNull(Matcher matcher, String group) {
    try {
      return matcher.group(group);
    } catch (IllegalArgumentException e) {
      return null; // the pattern has no such group
    }
  }

  /**
   * Values that stay after a secret's key: unset ones, and numbers after a {@code token} key
   * ({@code eos_token: 2}, {@code token: 512}: ids and counts, never an API token's shape).
   */
  private static boolean kept(String key, String value) {
    String bare = stripQuotes(value);
    if (isUnset(bare)) {
      return true;
    }
    return key.toLowerCase(Locale.ROOT).endsWith("token") && NUMBER.matcher(bare).matches();
  }

  /** {@code Bearer x}: x goes when it looks like a credential, not like a word of prose. */
  private static String scheme(java.util.regex.MatchResult match) {
    String credentials = match.group(3);
    if (!credentialLike(credentials)) {
      return Matcher.quoteReplacement(match.group());
    }
    return Matcher.quoteReplacement(match.group(1) + match.group(2) + REDACTED);
  }

  /**
   * At least 8 characters and not a plain word: a digit or a symbol of base64 or token68, or upper
   * and lower case mixed other than a capitalised word.
   */
  static boolean credentialLike(String text) {
    if (text.length() < 8) {
      return false;
    }
    boolean upper = false;
    boolean lower = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isDigit(c) || "+/=_.~-".indexOf(c) >= 0) {
        return true;
      }
      upper |= Character.isUpperCase(c);
      lower |= Character.isLowerCase(c);
    }
    return upper && lower && !CAPITALISED_WORD.matcher(text).matches();
  }

  /** {@code None}, {@code null}, empty, a boolean: nothing to hide, and worth knowing. */
  static boolean isUnset(String value) {
    String v = value.strip();
    return v.isEmpty()
        || v.equals("None")
        || v.equals("null")
        || v.equals("[]")
        || v.equals("{}")
        || v.equals(REDACTED)
        || v.equalsIgnoreCase("true")
        || v.equalsIgnoreCase("false");
  }

  private static String stripQuotes(String value) {
    String v = value;
    if (v.startsWith("\\")) {
      v = v.substring(1);
      // length first: a lone backslash leaves nothing to look at (found by SglangHostileInputTest)
      if (v.length() >= 3 && v.endsWith("\\" + v.charAt(0))) {
        return v.substring(1, v.length() - 2);
      }
    }
    if (v.length() >= 2
        && (v.charAt(0) == '\'' || v.charAt(0) == '"')
        && v.charAt(v.length() - 1) == v.charAt(0)) {
      return v.substring(1, v.length() - 1);
    }
    return v;
  }
}
