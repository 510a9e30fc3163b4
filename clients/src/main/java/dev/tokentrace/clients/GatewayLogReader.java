package dev.tokentrace.clients;

import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.SourcePosition;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The line loop shared by the gateway access-log readers (NGINX, Envoy): one request per line, read
 * through an {@link AccessLogTemplate}; a line of another layout, without a request ID or with a
 * bad value is a rejection naming file, line and reason (docs/formats/gateways.md#bad-input). A
 * gateway row is a client_timing row of vantage {@code gateway}: end-to-end only, no tokens.
 */
abstract class GatewayLogReader implements ClientTimingReader {
  static final int MAX_LINE_BYTES = 64 * 1024;

  /**
   * Starts the {@link ClientLineReader#state()} of a followed log read in a {@code --log-format}
   * layout; the format string follows, so a resumed follower reads the file in the layout it
   * started with (docs/follow.md#client-files).
   */
  static final String LAYOUT_STATE = "log-format:";

  private final ClientReadSettings settings;

  GatewayLogReader(ClientReadSettings settings) {
    this.settings = settings;
  }

  /** The same reader with {@code settings}. */
  abstract GatewayLogReader with(ClientReadSettings settings);

  /**
   * Why this reader cannot read logs in the {@code --log-format} layout (a bad directive, no
   * timings, no request id), or null when it can or none is given.
   */
  abstract @Nullable String customProblem();

  /** Why the file cannot be read at all with this layout, or null; checked before any line. */
  abstract @Nullable String unusable(AccessLogTemplate template);

  /** The layout of a file starting with {@code head}. */
  abstract AccessLogTemplate template(FileHead head);

  /** The row of one matched line. */
  abstract ClientTiming row(SourcePosition position, Map<String, String> values) throws BadField;

  /** A reason for a line the template does not match (e.g. a known other layout). */
  String mismatch(String text) {
    return "line does not match the " + format() + " log format";
  }

  /** Reads one non-blank line of {@code template}'s layout into {@code sink}. */
  void readLine(
      SourcePosition position, String text, AccessLogTemplate template, ClientReaderOutput sink)
      throws BadField {
    Map<String, String> values = template.match(text);
    if (values == null) {
      throw new BadField(mismatch(text));
    }
    sink.row(row(position, values));
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    AccessLogTemplate template = template(FileHead.of(file));
    String unusable = unusable(template);
    if (unusable != null) {
      sink.rejected(
          new ClientRejection(
              new SourcePosition(file.toString(), 1, 0), unusable + " (file skipped)", ""));
      return;
    }
    ClientLines.readAll(file, MAX_LINE_BYTES, new Lines(template, null, null, null), sink);
  }

  @Override
  public ClientLineReader lineReader(FileHead head, @Nullable String state) {
    String stored =
        state != null && state.startsWith(LAYOUT_STATE)
            ? state.substring(LAYOUT_STATE.length())
            : null;
    if (stored != null && !stored.isBlank() && !stored.equals(settings.logFormat())) {
      // a resumed file keeps the layout it was started with (docs/follow.md#client-files)
      GatewayLogReader started =
          with(new ClientReadSettings(settings.requestIdPrefix(), stored, settings.idColumn()));
      AccessLogTemplate template = started.template(head);
      String change =
          "the file was started with --log-format "
              + ClientFields.quote(stored)
              + (settings.logFormat() == null
                  ? ""
                  : ", not " + ClientFields.quote(settings.logFormat()))
              + ": it is read on in that layout (a new --shipper-id reads it again)";
      return started.new Lines(template, started.unusable(template), state, change);
    }
    AccessLogTemplate template = template(head);
    String layout = settings.logFormat() != null ? LAYOUT_STATE + settings.logFormat() : null;
    return new Lines(template, unusable(template), layout, null);
  }

  /** One request per line of the layout chosen from the file's head. */
  private final class Lines implements ClientLineReader {
    private final AccessLogTemplate template;
    private final @Nullable String unusable;
    private final @Nullable String state;
    private @Nullable String change;
    private boolean said;

    /**
     * @param state the {@code --log-format} layout ({@link #LAYOUT_STATE}), null for ours
     * @param change said once with the first line: the layout differs from the option's
     */
    Lines(
        AccessLogTemplate template,
        @Nullable String unusable,
        @Nullable String state,
        @Nullable String change) {
      this.template = template;
      this.unusable = unusable;
      this.state = state;
      this.change = change;
    }

    @Override
    public @Nullable String state() {
      return state;
    }

    @Override
    public void line(SourcePosition position, String text, ClientReaderOutput sink) {
      if (change != null) {
        sink.warning(position, change);
        change = null;
      }
      if (skipped(position, sink)) {
        return;
      }
      if (text.isBlank()) {
        sink.ignored(position, "blank line");
        return;
      }
      try {
        readLine(position, text, template, sink);
      } catch (BadField e) {
        sink.rejected(new ClientRejection(position, e.getMessage(), text));
      }
    }

    @Override
    public void invalid(
        SourcePosition position, String reason, String excerpt, ClientReaderOutput sink) {
      if (!skipped(position, sink)) {
        boolean text = !reason.startsWith("line too long");
        sink.rejected(new ClientRejection(position, reason, text ? excerpt : ""));
      }
    }

    /** A layout that cannot be read: the first line says why, the others are ignored. */
    private boolean skipped(SourcePosition position, ClientReaderOutput sink) {
      if (unusable == null) {
        return false;
      }
      if (said) {
        sink.ignored(position, "file skipped");
      } else {
        said = true;
        sink.rejected(new ClientRejection(position, unusable + " (file skipped)", ""));
      }
      return true;
    }
  }

  /** A logged value, null for a gateway's empty marks ({@code -} and the empty string). */
  static @Nullable String value(Map<String, String> values, String field) {
    String value = values.get(field);
    if (value == null) {
      return null;
    }
    String stripped = value.strip();
    return stripped.isEmpty() || stripped.equals("-") ? null : stripped;
  }

  /**
   * The elements of a per-attempt list ({@code a, b : c}; NGINX joins attempts with {@code ", "}
   * and internal redirects with {@code " : "}), each null for {@code -}; empty when not logged.
   */
  static List<@Nullable String> attempts(@Nullable String list) {
    List<@Nullable String> out = new ArrayList<>();
    if (list == null) {
      return out;
    }
    for (String part : list.split("\\s*,\\s*|\\s+:\\s+")) {
      String element = part.strip();
      out.add(element.isEmpty() || element.equals("-") ? null : element);
    }
    return out;
  }

  /** A row with the values every gateway reader finds. */
  static ClientTiming timing(
      SourcePosition position,
      String id,
      Instant start,
      double e2eMs,
      @Nullable Integer httpStatus,
      GatewayDetail gateway) {
    // a layout without the status (a custom format) counts every logged request as completed
    String status =
        httpStatus == null || httpStatus >= 200 && httpStatus < 400
            ? ClientTiming.STATUS_OK
            : "http " + httpStatus;
    return new ClientTiming(
        position,
        id,
        RequestKeys.normalize(id),
        start,
        null,
        null,
        e2eMs,
        null,
        null,
        null,
        null,
        status,
        false,
        IdKind.SENT,
        ClientDetail.NONE,
        gateway);
  }

  /** The request ID: {@code idField} when given, else the first present of {@code candidates}. */
  static String id(Map<String, String> values, @Nullable String idField, List<String> candidates)
      throws BadField {
    List<String> fields = idField != null ? List.of(idField) : candidates;
    for (String field : fields) {
      String id = value(values, field);
      if (id != null) {
        if (id.length() > ClientRow.MAX_REQUEST_ID) {
          throw new BadField("request id longer than " + ClientRow.MAX_REQUEST_ID + " characters");
        }
        return id;
      }
    }
    throw new BadField("no request id (" + String.join(", ", fields) + " empty or '-')");
  }

  /** The status code, or null when the layout does not log it. */
  static @Nullable Integer status(Map<String, String> values, String key, String field)
      throws BadField {
    if (!values.containsKey(key)) {
      return null;
    }
    String raw = value(values, key);
    if (raw == null || !raw.matches("\\d{1,3}")) {
      throw new BadField("bad '" + field + "' value " + ClientFields.quote(String.valueOf(raw)));
    }
    return Integer.parseInt(raw);
  }

  /** Seconds with a fraction (NGINX times) in ms, null for {@code -}. */
  static @Nullable Double seconds(@Nullable String raw, String field) throws BadField {
    if (raw == null) {
      return null;
    }
    if (!raw.matches("\\d+(\\.\\d+)?")) {
      throw new BadField("bad '" + field + "' value " + ClientFields.quote(raw));
    }
    return Double.parseDouble(raw) * 1000.0;
  }

  /** Whole or fractional milliseconds (Envoy durations), null for {@code -}. */
  static @Nullable Double millis(@Nullable String raw, String field) throws BadField {
    if (raw == null) {
      return null;
    }
    if (!raw.matches("\\d+(\\.\\d+)?")) {
      throw new BadField("bad '" + field + "' value " + ClientFields.quote(raw));
    }
    return Double.parseDouble(raw);
  }
}
