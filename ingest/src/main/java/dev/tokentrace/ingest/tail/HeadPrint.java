package dev.tokentrace.ingest.tail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32;

/**
 * A fingerprint of a file's first bytes (up to {@value #MAX_LENGTH}): tells a file truncated and
 * rewritten past the old read offset (copytruncate between two polls) or a new file that reuses a
 * deleted file's inode from the file it replaced. Immutable.
 *
 * @param length how many leading bytes the checksum covers (fewer while the file is short)
 * @param crc CRC-32 of those bytes
 */
public record HeadPrint(int length, long crc) {
  public static final int MAX_LENGTH = 256;

  public HeadPrint {
    if (length < 0 || length > MAX_LENGTH) {
      throw new IllegalArgumentException("length must be 0.." + MAX_LENGTH + ": " + length);
    }
  }

  /** The fingerprint of the first {@code min(size, MAX_LENGTH)} bytes of {@code channel}. */
  public static HeadPrint read(FileChannel channel) throws IOException {
    return read(channel, (int) Math.min(channel.size(), MAX_LENGTH));
  }

  /** True when the file still starts with the bytes this fingerprint was taken of. */
  public boolean matches(FileChannel channel) throws IOException {
    return channel.size() >= length && read(channel, length).equals(this);
  }

  /** True when the file has grown so that a longer fingerprint could be taken. */
  public boolean extendable(long size) {
    return length < MAX_LENGTH && size > length;
  }

  private static HeadPrint read(FileChannel channel, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, buffer.position()) < 0) {
        break;
      }
    }
    CRC32 crc = new CRC32();
    crc.update(buffer.array(), 0, buffer.position());
    return new HeadPrint(buffer.position(), crc.getValue());
  }
}
