package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.PythonRepr;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads the text request lines of {@code --log-requests} (docs/formats/sglang.md#request-lines), of which only
 * the rid, {@code sampling_params.max_new_tokens} and {@code out.meta_info} are kept; prompt and
 * output text are skipped, never copied:
 *
 * <ul>
 *   <li>{@code Receive: obj=GenerateReqInput(..., rid='r1', ...)[, headers={...}]} (v0.4.1+) →
 *       {@code request_arrived} per rid (a batch request lists several);
 *   <li>{@code Finish: obj=...[, headers={...}], out={..., 'meta_info': {...}}} (v0.4.1+; without
 *       {@code out} for multimodal generation) and {@code in=..., out=...} (≤ v0.4.0.post2) →
 *       {@code request_finished} (+ {@code request_aborted}) and {@code request_timing} with
 *       source kind {@code meta_info}.
 * </ul>
 *
 * <p>v0.4.1 – v0.4.1.post6 printed strings in double quotes without escaping them, so a prompt
 * with a {@code "} cannot be followed structurally. Then the meta_info is read from the last
 * {@code meta_info: {} marker (it is the last key of {@code out}, after the output text) and a
 * Receive rid from the last {@code rid=}. Stateless.
 */
final class RequestLine {
  static final String RECEIVE = "Receive: obj=";
  static final String FINISH = "Finish: obj=";
  static final String LEGACY = "in=";
  static final String SOURCE_KIND = "meta_info";

  private static final String[] META_MARKERS = {"'meta_info': {", "meta_info: {"};

  private final RequestEvents events;

  RequestLine(RequestEvents events) {
    this.events = events;
  }

  /** What {@link #parse} made of a body. */
  enum Outcome {
    /** Not a request line. */
    NOT_REQUEST,
    /** Handled: events emitted or the line rejected. */
    DONE,
    /**
     * The request text did not end where the line ends (v0.4.1 – post6 print raw newlines of a
     * prompt): nothing emitted yet; the caller joins the next physical lines and asks again.
     */
    INCOMPLETE
  }

  /**
   * Reads a request line at {@code start}. Unless {@code last}, a line whose request text is not
   * complete is left {@link Outcome#INCOMPLETE}; with {@code last} it is read as well as it can be
   * (fallbacks above) and emitted or rejected.
   */
  Outcome parse(
      String line,
      int start,
      @Nullable Instant ts,
      SourcePosition source,
      ParseOutput sink,
      boolean last) {
    if (line.startsWith(RECEIVE, start)) {
      return receive(line, start + RECEIVE.length(), ts, source, sink, last);
    }
    if (line.startsWith(FINISH, start)) {
      return finish(line, start + FINISH.length(), ts, source, sink, last);
    }
    if (line.startsWith(LEGACY, start) && line.indexOf(", out=", start) > 0) {
      return finish(line, start + LEGACY.length(), ts, source, sink, last);
    }
    return Outcome.NOT_REQUEST;
  }

  /** True when {@code body} starts like a request line (complete or not). */
  static boolean isRequest(String line, int start) {
    return line.startsWith(RECEIVE, start)
        || line.startsWith(FINISH, start)
        || (line.startsWith(LEGACY, start) && line.indexOf(", out=", start) > 0);
  }

  private Outcome receive(
      String line,
      int objStart,
      @Nullable Instant ts,
      SourcePosition source,
      ParseOutput sink,
      boolean last) {
    PythonRepr reader = new PythonRepr(line, objStart);
    RequestObject obj = RequestObject.read(reader);
    if (!last && !complete(reader, false)) {
      return Outcome.INCOMPLETE;
    }
    List<String> rids = obj.rids();
    if (rids.isEmpty()) {
      String rid = lastRid(line, objStart);
      rids = rid == null ? List.of() : List.of(rid);
    }
    if (rids.isEmpty()) {
      reject(line, "receive line: no rid", source, sink);
    }
    for (String rid : rids) {
      events.arrived(ts, source, rid, obj.maxNewTokens(), sink);
    }
    return Outcome.DONE;
  }

  private Outcome finish(
      String line,
      int objStart,
      @Nullable Instant ts,
      SourcePosition source,
      ParseOutput sink,
      boolean last) {
    PythonRepr reader = new PythonRepr(line, objStart);
    RequestObject obj = RequestObject.read(reader);
    MetaInfo meta = null;
    boolean hasOut = false;
    if (!reader.failed()) {
      hasOut = complete(reader, true);
      meta = hasOut ? readOut(reader) : null;
    }
    if (!last && (reader.failed() || !reader.atEnd())) {
      return Outcome.INCOMPLETE;
    }
    if (meta == null && (reader.failed() || hasOut)) {
      meta = lastMetaInfo(line, objStart);
    }
    List<String> rids = obj.rids();
    String rid = rids.size() == 1 ? rids.get(0) : meta == null ? null : meta.id();
    if (rid == null || rid.isBlank()) {
      reject(line, "finish line: no rid", source, sink);
    } else if (meta != null && meta.problem() != null) {
      reject(line, "finish line: " + meta.problem(), source, sink);
    } else {
      events.finished(ts, source, rid, meta, SOURCE_KIND, sink);
    }
    return Outcome.DONE;
  }

  /**
   * After the obj: skips the 2026 {@code , headers={...}}; then, for a Finish line, consumes {@code
   * , out=} and says whether it is there; for a Receive line says whether the text ends.
   */
  private static boolean complete(PythonRepr reader, boolean expectOut) {
    if (reader.failed()) {
      return false;
    }
    reader.skipValue();
    if (reader.accept(", headers=")) {
      reader.skipValue();
    }
    return expectOut ? reader.accept(", out=") : !reader.failed() && reader.atEnd();
  }

  /** {@code {..., 'meta_info': {...}}}; null when there is no meta_info or the text breaks. */
  private static @Nullable MetaInfo readOut(PythonRepr reader) {
    if (!reader.openDict()) {
      return null;
    }
    MetaInfo meta = null;
    for (String key = reader.nextKey(); key != null; key = reader.nextKey()) {
      if (key.equals("meta_info")) {
        meta = MetaInfoReader.read(reader);
      }
    }
    return reader.failed() ? null : meta;
  }

  private static @Nullable MetaInfo lastMetaInfo(String line, int from) {
    for (String marker : META_MARKERS) {
      int at = line.lastIndexOf(marker);
      if (at >= from) {
        PythonRepr reader = new PythonRepr(line, at + marker.length() - 1);
        MetaInfo meta = MetaInfoReader.read(reader);
        return reader.failed() ? null : meta;
      }
    }
    return null;
  }

  /** The v0.4.1 unescaped-quote fallback: the value of the last {@code rid=} of the line. */
  private static @Nullable String lastRid(String line, int from) {
    int at = line.lastIndexOf(" rid=");
    if (at < from) {
      return null;
    }
    PythonRepr reader = new PythonRepr(line, at + 5);
    String rid = reader.readScalar() == PythonRepr.Scalar.STRING ? reader.string() : null;
    return rid == null || rid.isBlank() ? null : rid;
  }

  private static void reject(String line, String reason, SourcePosition source, ParseOutput sink) {
    String excerpt = EventText.requestExcerpt(line, 0);
    sink.rejected(Rejection.of(source, Engine.SGLANG, reason, excerpt));
  }

  /** The fields of a {@code GenerateReqInput(...)} repr that are kept. */
  private record RequestObject(List<String> rids, @Nullable Integer maxNewTokens) {
    static RequestObject read(PythonRepr reader) {
      List<String> rids = new ArrayList<>(1);
      Integer maxNewTokens = null;
      if (!reader.openCall()) {
        return new RequestObject(List.of(), null);
      }
      for (String key = reader.nextKey(); key != null; key = reader.nextKey()) {
        if (key.equals("rid")) {
          readRids(reader, rids);
        } else if (key.equals("sampling_params")) {
          maxNewTokens = maxNewTokens(reader);
        }
      }
      return new RequestObject(reader.failed() ? List.of() : rids, maxNewTokens);
    }

    private static void readRids(PythonRepr reader, List<String> rids) {
      if (reader.openList()) {
        while (reader.nextItem()) {
          addRid(reader, rids);
        }
      } else {
        addRid(reader, rids);
      }
    }

    private static void addRid(PythonRepr reader, List<String> rids) {
      if (reader.readScalar() == PythonRepr.Scalar.STRING) {
        String rid = reader.string();
        if (rid != null && !rid.isBlank()) {
          rids.add(rid);
        }
      }
    }

    /**
     * {@code sampling_params={'max_new_tokens': 128, ...}}; null for None, a batch list or junk.
     */
    private static @Nullable Integer maxNewTokens(PythonRepr reader) {
      if (!reader.peek('{') || !reader.openDict()) {
        return null;
      }
      Integer max = null;
      for (String key = reader.nextKey(); key != null; key = reader.nextKey()) {
        if (key.equals("max_new_tokens") && reader.readScalar() == PythonRepr.Scalar.NUMBER) {
          double value = reader.number();
          max =
              value >= 0 && value <= Integer.MAX_VALUE && value == Math.rint(value)
                  ? (int) value
                  : null;
        }
      }
      return max;
    }
  }
}
