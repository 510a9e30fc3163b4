package dev.tokentrace.ingest.follow;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.tail.FileIdentity;
import dev.tokentrace.ingest.tail.FileProblems;
import dev.tokentrace.ingest.tail.ParseCounts;
import dev.tokentrace.ingest.tail.TailPosition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files a {@link Follower} reads: finds them from the specs (literal paths and globs, matched
 * again every rescan), resumes them from the checkpoint by identity (a file rotated while the
 * shipper was down is found again under its new name in the same directory), notices rotation (the
 * followed name now points to another file, or to none) and reports files it cannot read without
 * stopping the others. Not thread-safe.
 */
final class FileSet {
  private static final Logger log = LoggerFactory.getLogger(FileSet.class);

  private static final Duration PROBLEM_LOG_INTERVAL = Duration.ofSeconds(60);

  private final FollowSettings settings;
  private final FollowContext context;
  private final Map<FileIdentity, FollowedFile> files = new LinkedHashMap<>();
  private final Map<String, Problem> problems = new LinkedHashMap<>();
  private final Map<String, Engine> lastEngine = new HashMap<>();
  private final List<String> failures = new ArrayList<>();
  private ParseCounts dropped = ParseCounts.ZERO;
  private boolean backlog;
  private final Map<FileIdentity, Checkpoint.FileCheckpoint> resumable = new HashMap<>();
  private final List<Checkpoint.FileCheckpoint> checkpointed = new ArrayList<>();
  private boolean firstRun;
  private final boolean quiet;

  FileSet(FollowSettings settings, FollowContext context) {
    this(settings, context, false);
  }

  private FileSet(FollowSettings settings, FollowContext context, boolean quiet) {
    this.settings = settings;
    this.context = context;
    this.quiet = quiet;
  }

  /**
   * Where a first run starts: every file the specs name now, at the position a first run starts it
   * from, by identity and first bytes, as a checkpoint not committed anywhere. Taken when the
   * shipper starts, before it reaches Kafka, so that a file rotated away while it connects is found
   * among the generations (docs/follow.md#first-checkpoint). Says nothing: the files' problems are
   * said once the shipper follows them.
   */
  Checkpoint startingPoint(String shipperId) {
    FileSet early = new FileSet(settings, context, true);
    try {
      early.start(null);
      return early.checkpoint(shipperId);
    } finally {
      early.close();
    }
  }

  /** Finds the files and resumes them from {@code checkpoint} (null: the shipper's first run). */
  void start(@Nullable Checkpoint checkpoint) {
    firstRun = checkpoint == null;
    resumable.clear();
    checkpointed.clear();
    if (checkpoint != null) {
      for (Checkpoint.FileCheckpoint entry : checkpoint.files()) {
        resumable.put(entry.fileIdentity(), entry);
        checkpointed.add(entry);
      }
    }
    scan(true);
    Set<Path> claimed = new HashSet<>();
    for (Checkpoint.FileCheckpoint entry : List.copyOf(resumable.values())) {
      // a checkpoint of a file this command does not name (another glob, an earlier run of the
      // same --shipper-id) is not this command's to resume, nor to call lost
      if (settings.sources().stream().noneMatch(spec -> spec.matches(entry.path()))) {
        log.debug("{}: checkpointed, but no file or glob of this command names it", entry.path());
        continue;
      }
      resumeRotated(entry, claimed, checkpoint == null ? null : checkpoint.committedMs());
    }
    resumable.clear();
  }

  /** Matches the specs again: new files, files rotated away, files readable again. */
  void rescan() {
    scan(false);
  }

  private void scan(boolean initial) {
    Set<FileIdentity> seen = new HashSet<>();
    for (SourceSpec spec : settings.sources()) {
      for (String location : spec.files()) {
        FileIdentity identity = consider(location, spec, initial, null);
        if (identity != null) {
          seen.add(identity);
        }
      }
    }
    files.values().removeIf(file -> forget(file, seen));
  }

  /** Drops a file whose end is committed and that no spec matches anymore. */
  private boolean forget(FollowedFile file, Set<FileIdentity> seen) {
    if (!file.done() || seen.contains(file.identity())) {
      return false;
    }
    dropped = dropped.plus(file.counts());
    file.close();
    return true;
  }

  /**
   * Follows the file now at {@code location} unless it is followed already.
   *
   * @param hint the engine of the file it replaces (a rotation), if known
   * @return its identity, or null when it cannot be read
   */
  private @Nullable FileIdentity consider(
      String location, SourceSpec spec, boolean initial, @Nullable Engine hint) {
    Path path = Path.of(location);
    FileIdentity identity;
    try {
      identity = FileIdentity.of(path);
      if (!files.containsKey(identity)) {
        files.put(identity, open(location, spec, identity, initial, hint));
      }
    } catch (IOException e) {
      problem(location, spec, e);
      return null;
    }
    resolved(location);
    return identity;
  }

  private FollowedFile open(
      String location,
      SourceSpec spec,
      FileIdentity identity,
      boolean initial,
      @Nullable Engine hint)
      throws IOException {
    Path path = Path.of(location);
    Checkpoint.FileCheckpoint entry = resumable.get(identity);
    if (entry != null && Generations.sameContent(path, entry)) {
      resumable.remove(identity);
    } else {
      // Its inode is reused by a new file (the old one was compressed or deleted while the
      // shipper was down): the checkpointed file is looked for among the generations instead.
      entry = null;
    }
    if (entry == null) {
      entry = compressedSince(path);
    }
    if (entry != null) {
      return resume(entry, path);
    }
    Engine engine = settings.engine() != null ? settings.engine() : hint;
    if (engine == null) {
      engine = lastEngine.get(location);
    }
    String instance = spec.instanceOf(location, settings.naming(), settings.instance());
    FollowedFile.Origin origin = new FollowedFile.Origin(location, instance, engine);
    boolean atEnd = initial && firstRun && settings.startAt() == StartAt.END;
    TailPosition start = atEnd ? endOf(path) : TailPosition.START;
    if (!initial || !firstRun) {
      log.info("{}: new file ({}), following it from its start", location, instance);
    }
    return FollowedFile.open(origin, path, start, context);
  }

  /**
   * Who a checkpointed file is: its engine or its client format, and (with {@code resumed}, read
   * from the checkpointed position) its reader's or parser's state.
   */
  private FollowedFile.Origin origin(Checkpoint.FileCheckpoint entry, boolean resumed) {
    String client = entry.clientFormat();
    if (client != null) {
      return new FollowedFile.Origin(
          entry.path(), entry.instance(), null, client, resumed ? entry.clientState() : null);
    }
    Engine engine = entry.engine() == null ? settings.engine() : Engine.fromId(entry.engine());
    return new FollowedFile.Origin(
        entry.path(), entry.instance(), engine, resumed ? entry.clientState() : null);
  }

  /**
   * The checkpoint entry of a file that {@code path} (a gzip file a glob names) is the compressed
   * copy of, taken off the resumable ones; null when there is none.
   */
  private Checkpoint.@Nullable FileCheckpoint compressedSince(Path path) {
    if (resumable.isEmpty() || !String.valueOf(path.getFileName()).endsWith(".gz")) {
      return null;
    }
    for (Checkpoint.FileCheckpoint entry : List.copyOf(resumable.values())) {
      if (entry.headLength() > 0
          && entry.head().equals(Generations.gzipHead(path, entry.headLength()))) {
        resumable.remove(entry.fileIdentity());
        return entry;
      }
    }
    return null;
  }

  private FollowedFile resume(Checkpoint.FileCheckpoint entry, Path location) throws IOException {
    FollowedFile.Origin origin = origin(entry, true);
    FollowedFile file = FollowedFile.open(origin, location, entry.position(), context);
    if (!file.startsWith(entry.head(), entry.offset())) {
      log.warn(
          "{}: shorter than its checkpoint or rewritten since (truncated while the shipper was"
              + " down?): reading it again from its start",
          entry.path());
      file.close();
      return FollowedFile.open(origin(entry, false), location, TailPosition.START, context);
    }
    log.info("{}: resuming at line {} (offset {})", entry.path(), entry.line(), entry.offset());
    return file;
  }

  /**
   * A checkpointed file that no spec matches now: rotated away while the shipper was down. It is
   * looked for among the followed name's rotated generations (by inode and first bytes, or by its
   * first decompressed bytes once compressed) and read to its end; the generations rotated in and
   * out after it while the shipper was down are shipped whole (docs/follow.md#rotation-while-down).
   * When it is gone, the lines lost are said loudly and counted as a problem.
   */
  private void resumeRotated(
      Checkpoint.FileCheckpoint entry, Set<Path> claimed, @Nullable Long checkpointMillis) {
    resumable.remove(entry.fileIdentity());
    List<Generations.Generation> generations =
        new ArrayList<>(Generations.of(Path.of(entry.path())));
    generations.removeIf(g -> files.containsKey(g.identity()) || claimed.contains(g.path()));
    int anchor = -1;
    for (int i = 0; i < generations.size() && anchor < 0; i++) {
      if (generations.get(i).is(entry)) {
        anchor = i;
      }
    }
    List<Generations.Generation> newer = new ArrayList<>();
    if (anchor >= 0) {
      Generations.Generation found = generations.get(anchor);
      claimed.add(found.path());
      newer.addAll(generations.subList(0, anchor));
      try {
        FollowedFile file = resume(entry, found.path());
        file.markRotated();
        files.put(file.identity(), file);
        log.info(
            "{}: rotated to {} while the shipper was down; reading it to its end",
            entry.path(),
            found.path());
      } catch (IOException e) {
        lost(entry, found.path() + " cannot be read: " + FileProblems.describe(e));
      }
    } else {
      lost(entry, "it is gone (deleted, or rotated past the generations kept)");
      for (Generations.Generation generation : generations) {
        if (checkpointMillis != null && generation.modified() > checkpointMillis) {
          newer.add(generation);
        }
      }
    }
    for (int i = newer.size() - 1; i >= 0; i--) {
      Generations.Generation generation = newer.get(i);
      if (checkpointed.stream().anyMatch(other -> other != entry && generation.is(other))) {
        continue; // another checkpointed file: resumed from its own entry
      }
      claimed.add(generation.path());
      shipWhole(entry, generation);
    }
  }

  /** A generation written and rotated away while the shipper was down: shipped from its start. */
  private void shipWhole(Checkpoint.FileCheckpoint entry, Generations.Generation generation) {
    FollowedFile.Origin origin = origin(entry, false);
    try {
      FollowedFile file = FollowedFile.open(origin, generation.path(), TailPosition.START, context);
      file.markRotated();
      files.put(file.identity(), file);
      log.warn(
          "{}: {} was rotated in and out while the shipper was down: shipping it whole",
          entry.path(),
          generation.path());
    } catch (IOException e) {
      String failure =
          entry.path()
              + ": its rotated generation "
              + generation.path()
              + " cannot be read ("
              + FileProblems.describe(e)
              + "): its lines are lost";
      log.error(failure);
      failures.add(failure);
    }
  }

  /** Says loudly which lines of a checkpointed file are lost, and counts it as a problem. */
  private void lost(Checkpoint.FileCheckpoint entry, String why) {
    String failure =
        entry.path()
            + ": LINES LOST: the file checkpointed at line "
            + entry.line()
            + " (offset "
            + entry.offset()
            + ", identity "
            + entry.identity()
            + ") was rotated while the shipper was down and "
            + why
            + "; its lines from line "
            + entry.line()
            + " to its end are not shipped";
    log.error(failure);
    failures.add(failure);
  }

  /**
   * Reads every file once, up to {@code budget} bytes each; stops early when {@code full} says the
   * transaction holds enough. Files that read nothing are checked for rotation.
   *
   * @return bytes read in all
   */
  long poll(byte[] buffer, long budget, BooleanSupplier full) {
    long total = 0;
    backlog = false;
    for (FollowedFile file : List.copyOf(files.values())) {
      if (full.getAsBoolean()) {
        backlog = true;
        break;
      }
      long read = pollOne(file, buffer, budget);
      total += read;
      backlog |= read >= budget;
      if (read == 0 && !file.rotated() && !file.gzip() && file.failure() == null) {
        checkRotation(file);
      }
    }
    return total;
  }

  /** True when the last {@link #poll} left bytes unread (a file read its whole budget). */
  boolean backlog() {
    return backlog;
  }

  private long pollOne(FollowedFile file, byte[] buffer, long budget) {
    try {
      long read = file.poll(buffer, budget);
      Engine engine = file.engine();
      if (engine != null) {
        lastEngine.put(file.location(), engine);
      }
      return read;
    } catch (IOException e) {
      String failure = file.name() + ": cannot read: " + FileProblems.describe(e);
      log.error("{}; the other files keep flowing", failure);
      failures.add(failure);
      dropped = dropped.plus(file.counts());
      files.remove(file.identity());
      file.close();
      return 0;
    }
  }

  private void checkRotation(FollowedFile file) {
    String location = file.location();
    FileIdentity now = identityOrNull(file.path());
    if (file.identity().equals(now)) {
      return;
    }
    file.markRotated();
    SourceSpec spec = specOf(location);
    if (now != null && spec != null) {
      consider(location, spec, false, file.engine());
    }
  }

  private @Nullable SourceSpec specOf(String location) {
    for (SourceSpec spec : settings.sources()) {
      if (spec.matches(location)) {
        return spec;
      }
    }
    return null;
  }

  /** Finishes rotated files idle for {@code graceNanos} (all rotated ones when 0). */
  void finishRotated(long graceNanos) {
    for (FollowedFile file : files.values()) {
      if (!file.finished() && file.idleRotated(graceNanos)) {
        file.finish();
      }
    }
  }

  /** {@code --once} at the end of the input: decide waiting heads with what they have. */
  void decideHeads() {
    for (FollowedFile file : files.values()) {
      file.decideNow();
    }
  }

  /** After a failed transaction: every file back to its committed position. */
  void rewind() {
    for (FollowedFile file : List.copyOf(files.values())) {
      try {
        file.rewind();
      } catch (IOException e) {
        pollFailure(file, e);
      }
    }
  }

  private void pollFailure(FollowedFile file, IOException e) {
    String failure = file.name() + ": cannot read: " + FileProblems.describe(e);
    log.error("{}; the other files keep flowing", failure);
    failures.add(failure);
    files.remove(file.identity());
    file.close();
  }

  Checkpoint checkpoint(String shipperId) {
    List<Checkpoint.FileCheckpoint> entries = new ArrayList<>();
    for (FollowedFile file : files.values()) {
      if (file.failure() == null) {
        entries.add(file.checkpoint());
      }
    }
    return new Checkpoint(Checkpoint.VERSION, shipperId, entries, System.currentTimeMillis());
  }

  /** The checkpoint was committed: files whose end it holds are closed. */
  void committed() {
    for (FollowedFile file : files.values()) {
      boolean wasDone = file.done();
      file.committed();
      if (file.done() && !wasDone) {
        file.close();
      }
    }
  }

  boolean dirty() {
    for (FollowedFile file : files.values()) {
      if (file.dirty()) {
        return true;
      }
    }
    return false;
  }

  ParseCounts counts() {
    ParseCounts total = dropped;
    for (FollowedFile file : files.values()) {
      total = total.plus(file.counts());
    }
    return total;
  }

  ParseCounts committedCounts() {
    ParseCounts total = dropped;
    for (FollowedFile file : files.values()) {
      total = total.plus(file.committedCounts());
    }
    return total;
  }

  long lag() {
    long total = 0;
    for (FollowedFile file : files.values()) {
      total += file.lag();
    }
    return total;
  }

  int size() {
    return files.size();
  }

  /** Files that failed and paths that cannot be followed now, as {@code path: reason}. */
  List<String> problems() {
    List<String> all = new ArrayList<>(failures);
    for (FollowedFile file : files.values()) {
      if (file.failure() != null) {
        all.add(file.failure());
      }
    }
    problems.forEach((location, problem) -> all.add(location + ": " + problem.reason()));
    return all;
  }

  void close() {
    for (FollowedFile file : files.values()) {
      file.close();
    }
  }

  private void problem(String location, SourceSpec spec, IOException e) {
    String reason = FileProblems.describe(e);
    boolean waiting = e instanceof NoSuchFileException && !spec.isGlob();
    Problem known = problems.get(location);
    long now = System.nanoTime();
    if (quiet) {
      problems.put(location, new Problem(reason, now));
    } else if (known == null || !known.reason().equals(reason)) {
      if (waiting && lastEngine.containsKey(location)) {
        log.info("{}: rotated away; following its successor once it appears", location);
      } else if (waiting) {
        log.warn("{}: no such file (yet); following it once it appears", location);
      } else {
        log.error("{}: cannot follow: {}; the other files keep flowing", location, reason);
      }
      problems.put(location, new Problem(reason, now));
    } else if (!waiting && now - known.logged() > PROBLEM_LOG_INTERVAL.toNanos()) {
      log.error("{}: still cannot follow: {}", location, reason);
      problems.put(location, new Problem(reason, now));
    }
  }

  private void resolved(String location) {
    if (problems.remove(location) != null) {
      log.info("{}: readable now, following it", location);
    }
  }

  private static @Nullable FileIdentity identityOrNull(Path path) {
    try {
      return FileIdentity.of(path);
    } catch (IOException e) {
      return null;
    }
  }

  /** After the last complete line, with its number (for {@link StartAt#END}). */
  private static TailPosition endOf(Path path) throws IOException {
    long offset = 0;
    long lines = 0;
    long position = 0;
    byte[] buffer = new byte[64 * 1024];
    try (InputStream input = Files.newInputStream(path)) {
      for (int count = input.read(buffer); count > 0; count = input.read(buffer)) {
        for (int i = 0; i < count; i++) {
          if (buffer[i] == '\n') {
            lines++;
            offset = position + i + 1;
          }
        }
        position += count;
      }
    }
    return new TailPosition(offset, lines + 1);
  }

  private record Problem(String reason, long logged) {}
}
