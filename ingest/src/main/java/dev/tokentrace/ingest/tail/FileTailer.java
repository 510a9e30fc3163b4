package dev.tokentrace.ingest.tail;

import static java.util.Objects.requireNonNull;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;

/**
 * Reads one file from a byte offset on, the way a follower needs it: opens (plain or gzip, told by
 * the magic bytes), seeks, reads what is there now and says when the file was truncated. Never
 * blocks waiting for data: {@link #read} returns -1 at the current end (Kafka Connect's
 * FileStreamSourceTask does the same; a blocking readLine would hang on a live file).
 *
 * <p>A plain file stays open while it is followed, so it can be read to its end after it was
 * renamed or deleted (rotation). Truncation (copytruncate) shows as a size below the read offset or
 * as first bytes that no longer match the {@link HeadPrint} taken when the file was opened. Gzip
 * files (rotated logs) never grow: they are decompressed from the start and their offsets count
 * decompressed bytes; seeking re-reads them. Not thread-safe.
 */
public final class FileTailer implements AutoCloseable {
  private static final int GZIP_MAGIC_1 = 0x1f;
  private static final int GZIP_MAGIC_2 = 0x8b;

  private final Path path;
  private final FileChannel channel;
  private final FileIdentity identity;
  private final boolean gzip;
  private @Nullable InputStream gzipStream;
  private HeadPrint head;
  private long position;

  private FileTailer(Path path, FileChannel channel, FileIdentity identity, boolean gzip)
      throws IOException {
    this.path = path;
    this.channel = channel;
    this.identity = identity;
    this.gzip = gzip;
    this.head = HeadPrint.read(channel);
  }

  /**
   * Opens {@code path} and positions it at {@code offset}.
   *
   * @throws IOException when it cannot be opened (missing, no permission, a directory)
   */
  public static FileTailer open(Path path, long offset) throws IOException {
    FileIdentity identity = FileIdentity.of(path);
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      FileTailer tailer = new FileTailer(path, channel, identity, startsWithGzipMagic(channel));
      tailer.seek(offset);
      return tailer;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  public Path path() {
    return path;
  }

  /** The identity of the file as opened; it stays the file read even after a rename. */
  public FileIdentity identity() {
    return identity;
  }

  public HeadPrint head() {
    return head;
  }

  /** True for a gzip file: it is read once, never followed. */
  public boolean gzip() {
    return gzip;
  }

  /** Bytes read so far (decompressed for gzip): the offset of the next byte {@link #read} gives. */
  public long position() {
    return position;
  }

  /** The file's size now; for gzip files the compressed size. */
  public long size() throws IOException {
    return channel.size();
  }

  /** Bytes there are still to read now (0 for gzip, whose decompressed size is unknown). */
  public long remaining() throws IOException {
    return gzip ? 0 : Math.max(0, channel.size() - position);
  }

  /**
   * Reads what is there now into {@code buffer}.
   *
   * @return bytes read, or -1 at the current end of the file
   * @throws java.util.zip.ZipException or {@link java.io.EOFException} for a corrupt or cut gzip
   *     file
   */
  public int read(byte[] buffer) throws IOException {
    int count = gzip ? gzipStream().read(buffer) : channel.read(ByteBuffer.wrap(buffer), position);
    if (count > 0) {
      position += count;
    }
    return count;
  }

  /**
   * True when the file was truncated since it was opened: smaller than what was read, or its first
   * bytes changed (truncated and written past the old offset between two checks). Takes a longer
   * fingerprint while the file is still short. Always false for gzip.
   */
  public boolean truncated() throws IOException {
    if (gzip) {
      return false;
    }
    long size = channel.size();
    if (size < position || !head.matches(channel)) {
      return true;
    }
    if (head.extendable(size)) {
      head = HeadPrint.read(channel);
    }
    return false;
  }

  /** True when the file still starts with the bytes {@code print} was taken of (gzip: always). */
  public boolean startsWith(HeadPrint print) throws IOException {
    return gzip || print.matches(channel);
  }

  /** Continues reading at {@code offset} (a truncated file at 0, a rewind at a checkpoint). */
  public void seek(long offset) throws IOException {
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0: " + offset);
    }
    if (gzip) {
      reopenGzip(offset);
    } else {
      position = offset;
      head = HeadPrint.read(channel);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (gzipStream != null) {
        gzipStream.close();
      }
    } finally {
      channel.close();
    }
  }

  private InputStream gzipStream() throws IOException {
    InputStream stream = gzipStream;
    if (stream == null) {
      reopenGzip(0);
      stream = requireNonNull(gzipStream, "gzipStream");
    }
    return stream;
  }

  private void reopenGzip(long offset) throws IOException {
    if (gzipStream != null) {
      gzipStream.close(); // ends its inflater; the channel stays open (KeepOpen)
    }
    channel.position(0);
    InputStream raw = new KeepOpen(Channels.newInputStream(channel));
    gzipStream = new GZIPInputStream(raw, LogFileReader.BUFFER_BYTES);
    position = 0;
    gzipStream.skipNBytes(offset);
    position = offset;
  }

  private static boolean startsWithGzipMagic(FileChannel channel) throws IOException {
    ByteBuffer magic = ByteBuffer.allocate(2);
    int read = 0;
    while (magic.hasRemaining() && read >= 0) {
      read = channel.read(magic, magic.position());
    }
    return magic.position() == 2
        && (magic.get(0) & 0xff) == GZIP_MAGIC_1
        && (magic.get(1) & 0xff) == GZIP_MAGIC_2;
  }

  /** Lets a gzip stream over the channel be closed (to free its inflater) without the channel. */
  private static final class KeepOpen extends FilterInputStream {
    KeepOpen(InputStream input) {
      super(input);
    }

    @Override
    public void close() {
      // the channel belongs to the tailer and is closed with it
    }
  }
}
