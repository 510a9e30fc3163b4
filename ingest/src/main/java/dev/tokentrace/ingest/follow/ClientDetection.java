package dev.tokentrace.ingest.follow;

import dev.tokentrace.clients.ClientReadSettings;
import dev.tokentrace.clients.ClientTimingReader;
import dev.tokentrace.clients.ClientTimingReaders;
import dev.tokentrace.clients.FileHead;
import org.jspecify.annotations.Nullable;

/**
 * Whether a followed file is a client or gateway file, by the same content detection as {@code
 * clients --format auto} (docs/follow.md#client-files): its first lines are given to every client
 * format in detection order, the first that recognizes them wins.
 */
final class ClientDetection {
  private ClientDetection() {}

  /**
   * What a file whose first lines are {@code head} is among the client formats.
   *
   * @param reader the format's reader, null when no client format recognizes the lines
   * @param failure why a recognized file cannot be followed (a format without a line reader)
   */
  record Choice(@Nullable ClientTimingReader reader, @Nullable String failure) {
    static final Choice NONE = new Choice(null, null);
  }

  static Choice detect(byte[] head, ClientReadSettings read) {
    FileHead fileHead = FileHead.of(head);
    if (fileHead.isEmpty() || fileHead.isBinary()) {
      return Choice.NONE;
    }
    for (ClientTimingReader reader : ClientTimingReaders.all(read)) {
      if (reader.recognize(fileHead).matches()) {
        if (reader.lineReader(fileHead, null) == null) {
          return new Choice(
              reader,
              "a "
                  + reader.format()
                  + " client file: only csv, aiperf, nginx and envoy files are followed (read a"
                  + " line at a time); load it with 'tokentrace clients' once the run wrote it");
        }
        return new Choice(reader, null);
      }
    }
    return Choice.NONE;
  }
}
