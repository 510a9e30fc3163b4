package dev.tokentrace.ingest.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker (KRaft, broker and controller in one) running inside this JVM,
 * listening on loopback only, with its data in a temporary directory {@code tokentrace-kraft-*}
 * that is deleted on {@link #close()} and when startup fails (docs/design.md#embedded-broker). Used
 * when no {@code --bootstrap-servers} is given, and by the integration tests. {@link #start(int,
 * Path)} instead keeps the data in a given directory across restarts (formatted on first use only),
 * on a fixed port if asked: {@code tokentrace broker --data-dir D --port P} and {@code ingest
 * --follow}.
 *
 * <p>Built on Kafka internals ({@code kafka.tools.StorageTool}, {@code kafka.server.
 * KafkaRaftServer}); they are the same on Kafka 4.1 and 4.4, and this class is the only place that
 * touches them. A JVM that is killed leaves its directory behind: CI sweeps {@code
 * /tmp/tokentrace-kraft-*}.
 *
 * <p>Fatal broker faults: Kafka answers one by calling {@code Exit.halt(1)}, which would end this
 * whole process without a word. While an embedded broker runs, {@link FatalFaults} replaces that
 * procedure: the fault is logged at ERROR and recorded, {@link #fatalFault()} reports it, and the
 * caller fails with a message instead of the JVM vanishing.
 *
 * <p>Thread-safe: {@link #close()} may be called from any thread, more than once.
 */
public final class EmbeddedBroker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedBroker.class);

  /** Startup attempts: a free port found by binding port 0 can be taken by another process. */
  static final int START_ATTEMPTS = 3;

  static final String DIR_PREFIX = "tokentrace-kraft-";

  /**
   * The log cleaner allocates its dedupe buffer eagerly (Kafka's default is 128 MiB of heap); we
   * only compact the tiny internal topics, so 8 MiB is plenty and keeps the CLI's heap small.
   */
  private static final String CLEANER_DEDUPE_BUFFER_BYTES = String.valueOf(8 * 1024 * 1024);

  /** See {@link #brokerConfig}: Kafka's default is 2000 ms. */
  static final String BROKER_HEARTBEAT_MS = "200";

  /**
   * Written into the data directory by {@code StorageTool format}; its presence means formatted.
   */
  private static final String META_PROPERTIES = "meta.properties";

  private final Path dir;
  private final boolean temporary;
  private final KafkaRaftServer server;
  private final String bootstrapServers;
  private final Duration startupTime;
  private boolean closed;

  private EmbeddedBroker(
      Path dir,
      boolean temporary,
      KafkaRaftServer server,
      String bootstrapServers,
      Duration startupTime) {
    this.dir = dir;
    this.temporary = temporary;
    this.server = server;
    this.bootstrapServers = bootstrapServers;
    this.startupTime = startupTime;
  }

  /**
   * Formats storage and starts a broker, retrying with fresh ports up to {@value #START_ATTEMPTS}
   * times.
   *
   * @throws IllegalStateException when every attempt failed; the last failure is the cause
   */
  public static EmbeddedBroker start() {
    return start(0, null);
  }

  /**
   * Starts a broker on {@code port} (0: any free port) with its data in {@code dataDir}, which is
   * created and formatted when new and kept on {@link #close()}; without a directory, a temporary
   * one is used and deleted. Retries like {@link #start()}.
   *
   * @throws IllegalStateException when every attempt failed (e.g. the port is taken)
   */
  public static EmbeddedBroker start(int port, @Nullable Path dataDir) {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be 0..65535: " + port);
    }
    RuntimeException last = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      try {
        return startOnce(port, dataDir);
      } catch (RuntimeException e) {
        last = e;
        log.warn("embedded kafka broker: start attempt {} failed: {}", attempt, e.toString());
      }
    }
    throw new IllegalStateException(
        "embedded kafka broker: could not start after " + START_ATTEMPTS + " attempts", last);
  }

  private static EmbeddedBroker startOnce(int port, @Nullable Path dataDir) {
    long started = System.nanoTime();
    boolean temporary = dataDir == null;
    Path dir = temporary ? createTempDir() : createDir(dataDir);
    KafkaRaftServer server = null;
    FatalFaults.acquire();
    try {
      int brokerPort = port == 0 ? freePort() : port;
      int controllerPort = freePort();
      Properties config = brokerConfig(dir, brokerPort, controllerPort);
      Path file = writeConfig(dir, config);
      // The controller's port may differ from the last run: static voters live in the config
      // only, so a kept directory needs no new format.
      if (!Files.exists(dir.resolve("data").resolve(META_PROPERTIES))) {
        format(file);
      }
      server = new KafkaRaftServer(KafkaConfig.fromProps(config, false), Time.SYSTEM);
      server.startup();
      Duration startup = Duration.ofNanos(System.nanoTime() - started);
      String bootstrap = "127.0.0.1:" + brokerPort;
      log.info("embedded kafka broker on {} started in {} ms", bootstrap, startup.toMillis());
      return new EmbeddedBroker(dir, temporary, server, bootstrap, startup);
    } catch (RuntimeException e) {
      stopQuietly(server, e);
      FatalFaults.release();
      if (temporary) {
        deleteRecursively(dir, e);
      }
      throw e;
    }
  }

  /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** Time from the call to {@link #start()} until the broker could serve (last attempt only). */
  public Duration startupTime() {
    return startupTime;
  }

  /** The data directory (deleted on close unless it was given to {@link #start(int, Path)}). */
  public Path directory() {
    return dir;
  }

  /**
   * The fatal fault Kafka reported (instead of halting the JVM), if any broker in this JVM had one
   * since this broker started. A broker with a fatal fault no longer serves reliably.
   */
  public Optional<String> fatalFault() {
    return FatalFaults.first();
  }

  /** Stops the broker (about half a second) and deletes its directory. Close clients first. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      server.shutdown();
      server.awaitShutdown();
    } finally {
      FatalFaults.release();
      if (temporary) {
        deleteRecursively(dir, null);
      }
    }
  }

  static Properties brokerConfig(Path dir, int brokerPort, int controllerPort) {
    Properties config = new Properties();
    config.put("process.roles", "broker,controller");
    config.put("node.id", "1");
    config.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    config.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    config.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    config.put("controller.listener.names", "CONTROLLER");
    config.put("inter.broker.listener.name", "PLAINTEXT");
    config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    config.put("log.dirs", dir.resolve("data").toString());
    config.put("offsets.topic.replication.factor", "1");
    config.put("offsets.topic.num.partitions", "1");
    config.put("transaction.state.log.replication.factor", "1");
    config.put("transaction.state.log.min.isr", "1");
    // One node: Kafka's 50 partitions of transaction state only slow down the first transaction
    config.put("transaction.state.log.num.partitions", "1");
    config.put("share.coordinator.state.topic.replication.factor", "1");
    config.put("share.coordinator.state.topic.min.isr", "1");
    config.put("group.initial.rebalance.delay.ms", "0");
    config.put("auto.create.topics.enable", "false");
    config.put("log.cleaner.dedupe.buffer.size", CLEANER_DEDUPE_BUFFER_BYTES);
    // The broker is unfenced, i.e. serves, only after a heartbeat that finds it caught up with the
    // metadata log; at Kafka's 2 s interval that heartbeat was a second or more of every start
    // (docs/design.md#embedded-broker). A loopback heartbeat every 200 ms costs nothing.
    config.put("broker.heartbeat.interval.ms", BROKER_HEARTBEAT_MS);
    return config;
  }

  private static Path writeConfig(Path dir, Properties config) {
    Path file = dir.resolve("server.properties");
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      config.store(writer, "tokentrace embedded broker");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    return file;
  }

  /** Equivalent of {@code kafka-storage.sh format -t <id> -c server.properties}. */
  private static void format(Path file) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    String[] args = {"format", "-t", Uuid.randomUuid().toString(), "-c", file.toString()};
    int status = StorageTool.execute(args, new PrintStream(output, true, StandardCharsets.UTF_8));
    if (status != 0) {
      throw new IllegalStateException(
          "kafka storage format failed with status "
              + status
              + ": "
              + output.toString(StandardCharsets.UTF_8).strip());
    }
  }

  private static Path createTempDir() {
    try {
      return Files.createTempDirectory(DIR_PREFIX);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory for kafka", e);
    }
  }

  private static Path createDir(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the kafka data directory " + dir, e);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on loopback", e);
    }
  }

  private static void stopQuietly(@Nullable KafkaRaftServer server, RuntimeException failure) {
    if (server == null) {
      return;
    }
    try {
      server.shutdown();
      server.awaitShutdown();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  static void deleteRecursively(Path dir, @Nullable RuntimeException failure) {
    try {
      Files.walkFileTree(dir, new Deleter());
    } catch (IOException e) {
      // Leaving a temp directory behind is not worth failing a run for; say where it is.
      log.warn("embedded kafka broker: could not delete {}: {}", dir, e.toString());
      if (failure != null) {
        failure.addSuppressed(e);
      }
    }
  }

  private static final class Deleter extends SimpleFileVisitor<Path> {
    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
      Files.deleteIfExists(file);
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult postVisitDirectory(Path directory, @Nullable IOException e)
        throws IOException {
      if (e != null) {
        throw e;
      }
      Files.deleteIfExists(directory);
      return FileVisitResult.CONTINUE;
    }
  }
}
