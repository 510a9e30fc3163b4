package dev.tokentrace.ingest.follow;

import dev.tokentrace.ingest.tail.FileIdentity;
import dev.tokentrace.ingest.tail.HeadPrint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;

/**
 * The rotated generations of a followed file in its directory, whatever the glob names: logrotate's
 * {@code a.log.1}, {@code a.log.2.gz} ({@code compress}, {@code delaycompress}) and {@code dateext}
 * names ({@code a.log-20260301[.gz]}), newest first (docs/follow.md#rotation-while-down). A
 * compressed generation has a new inode, so it is recognized by the fingerprint of its first
 * decompressed bytes, as Filebeat and Fluent Bit recognize a file by identity and first bytes.
 */
final class Generations {
  private static final Pattern NUMBERED = Pattern.compile("\\.(\\d{1,4})(\\.gz)?");
  private static final Pattern DATED = Pattern.compile("-([0-9][0-9._-]*)(\\.gz)?");

  private Generations() {}

  /** One rotated generation: where it is, its identity, whether gzip, and its age rank. */
  record Generation(Path path, FileIdentity identity, boolean gzip, long modified, String rank) {
    /**
     * True when this is the file a checkpoint entry describes: the same inode and first bytes, or
     * (compressed since) the same first bytes once decompressed.
     */
    boolean is(Checkpoint.FileCheckpoint entry) {
      if (!gzip) {
        return sameContent(path, entry);
      }
      return entry.headLength() > 0 && entry.head().equals(gzipHead(path, entry.headLength()));
    }
  }

  /**
   * True when the plain file at {@code path} holds what {@code entry} describes: the same first
   * bytes, and at least as many bytes as were shipped. The inode alone is not enough (a new file
   * can get the inode of one deleted while the shipper was down), and a copy (copytruncate) is the
   * same content under another inode. A gzip file is checked by its reader instead: true.
   */
  static boolean sameContent(Path path, Checkpoint.FileCheckpoint entry) {
    try (FileChannel channel = FileChannel.open(path)) {
      if (isGzip(channel)) {
        return true;
      }
      return entry.head().matches(channel) && channel.size() >= entry.offset();
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean isGzip(FileChannel channel) throws IOException {
    ByteBuffer magic = ByteBuffer.allocate(2);
    while (magic.hasRemaining() && channel.read(magic, magic.position()) >= 0) {
      // read the two magic bytes
    }
    return magic.position() == 2 && (magic.get(0) & 0xff) == 0x1f && (magic.get(1) & 0xff) == 0x8b;
  }

  /**
   * The generations of {@code followed} (its rotated siblings), newest first: by rotation number
   * ({@code .1} is the newest), dated names by their date.
   */
  static List<Generation> of(Path followed) {
    Path absolute = followed.toAbsolutePath();
    Path directory = absolute.getParent();
    String base = String.valueOf(absolute.getFileName());
    List<Generation> generations = new ArrayList<>();
    if (directory == null) {
      return generations;
    }
    try (DirectoryStream<Path> siblings = Files.newDirectoryStream(directory)) {
      for (Path sibling : siblings) {
        String name = String.valueOf(sibling.getFileName());
        if (!name.startsWith(base) || name.length() == base.length()) {
          continue;
        }
        String rank = rank(name.substring(base.length()));
        if (rank == null) {
          continue;
        }
        try {
          FileIdentity identity = FileIdentity.of(sibling);
          Path shown =
              followed.getParent() == null ? sibling.getFileName() : followed.resolveSibling(name);
          generations.add(
              new Generation(
                  shown,
                  identity,
                  name.endsWith(".gz"),
                  Files.getLastModifiedTime(sibling).toMillis(),
                  rank));
        } catch (IOException e) {
          // gone meanwhile, or not a regular file: not a generation
        }
      }
    } catch (IOException e) {
      return generations;
    }
    generations.sort(Comparator.comparing(Generation::rank));
    return generations;
  }

  /**
   * A sort key that puts newer generations first: {@code .N} as N zero-padded, dated suffixes by
   * the date inverted; null when the suffix is no rotation suffix.
   */
  static @Nullable String rank(String suffix) {
    Matcher numbered = NUMBERED.matcher(suffix);
    if (numbered.matches()) {
      return "0" + String.format("%05d", Integer.parseInt(numbered.group(1)));
    }
    Matcher dated = DATED.matcher(suffix);
    if (dated.matches()) {
      StringBuilder inverted = new StringBuilder("1");
      for (char c : dated.group(1).toCharArray()) {
        inverted.append(Character.isDigit(c) ? (char) ('9' - (c - '0')) : c);
      }
      return inverted.toString();
    }
    return null;
  }

  /** The fingerprint of the first {@code length} decompressed bytes; null when unreadable. */
  static @Nullable HeadPrint gzipHead(Path path, int length) {
    try (InputStream input = new GZIPInputStream(Files.newInputStream(path))) {
      byte[] head = input.readNBytes(length);
      CRC32 crc = new CRC32();
      crc.update(head, 0, head.length);
      return new HeadPrint(head.length, crc.getValue());
    } catch (IOException e) {
      return null;
    }
  }
}
