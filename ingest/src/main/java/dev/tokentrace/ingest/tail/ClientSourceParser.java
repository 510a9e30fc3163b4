package dev.tokentrace.ingest.tail;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.clients.ClientLineReader;
import dev.tokentrace.clients.ClientReaderOutput;
import dev.tokentrace.clients.ClientRejection;
import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.Rejection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a client format's {@link ClientLineReader} over the lines of one followed client or gateway
 * file and passes its rows (as {@code client_timing} rows of the run) and rejections to a {@link
 * TailOutput}. Every line is reported there: a line the reader made nothing of is ignored by rule
 * {@value #NO_ROW}, so the release gate never waits for it (docs/follow.md#client-files).
 *
 * <p>One instance per file; not thread-safe.
 */
public final class ClientSourceParser implements SourceLines {
  static final String NO_ROW = "client: no row";

  private static final Logger log = LoggerFactory.getLogger(ClientSourceParser.class);

  private final String path;
  private final String run;
  private final String format;
  private final ClientLineReader reader;
  private final TailOutput sink;
  private final Output output = new Output();
  private boolean reported;

  /**
   * @param path the file as the user named it: every row's {@code source_path}
   * @param run the rows' {@code run_id}
   * @param format the client format id, stored in {@code client_format}
   */
  public ClientSourceParser(
      String path, String run, String format, ClientLineReader reader, TailOutput sink) {
    this.path = requireNonNull(path, "path is null");
    this.run = requireNonNull(run, "run is null");
    this.format = requireNonNull(format, "format is null");
    this.reader = requireNonNull(reader, "reader is null");
    this.sink = requireNonNull(sink, "sink is null");
  }

  @Override
  public void line(String text, long number, long offset) {
    SourcePosition position = new SourcePosition(path, number, offset);
    reported = false;
    reader.line(position, text, output);
    if (!reported) {
      sink.ignored(position, NO_ROW);
    }
  }

  @Override
  public void invalid(long number, long offset, String reason, byte[] raw) {
    SourcePosition position = new SourcePosition(path, number, offset);
    reported = false;
    String excerpt = reason.startsWith("line too long") ? "" : new String(raw, UTF_8);
    reader.invalid(position, reason, excerpt, output);
    if (!reported) {
      sink.ignored(position, NO_ROW);
    }
  }

  @Override
  public void finish() {
    // a followed file never ends: an empty one is no error, it is just not written yet
  }

  /** What a resumed reader of this file needs ({@link ClientLineReader#state()}). */
  @Override
  public @Nullable String state() {
    return reader.state();
  }

  private final class Output implements ClientReaderOutput {
    @Override
    public void row(ClientTiming timing) {
      reported = true;
      sink.client(new ClientTiming.Stored(run, format, timing));
    }

    @Override
    public void rejected(ClientRejection rejection) {
      reported = true;
      // the rejects topic carries the excerpt: a client line is never sent raw
      sink.clientRejected(rejection, Rejection.excerptOf(rejection.excerpt()).getBytes(UTF_8));
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      reported = true;
      sink.ignored(position, rule);
    }

    @Override
    public void warning(SourcePosition position, String message) {
      log.warn("{}: {}: {}", position, ClientRejection.ENGINE, message);
    }
  }
}
