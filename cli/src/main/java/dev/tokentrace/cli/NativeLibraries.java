package dev.tokentrace.cli;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Issue [2.2] item 5: the native libraries of the process leave nothing in the temporary directory,
 * whatever ends the process, {@code kill -9} included (docs/follow.md#temporary-files).
 *
 * <ul>
 *   <li>lz4-java (Kafka's record compression), zstd-jni and snappy-java (the other codecs a topic
 *       may hold) are extracted <em>once</em> into a versioned cache directory, {@link #directory}:
 *       {@code $XDG_CACHE_HOME/tokentrace/native/<version>} ({@code ~/.cache/tokentrace/...}
 *       without it, or {@code -Dtokentrace.native.dir}); the file name carries the library's
 *       SHA-256, so a new library never reuses an old file. Each is loaded from there ({@link
 *       System#load}) before its own loader runs, and that loader is told it is loaded: lz4-java's
 *       {@code Native.loaded}, zstd-jni's {@code Native.assumeLoaded()}, snappy-java's {@code
 *       org.xerial.snappy.lib.path}/{@code lib.name} properties.
 *   <li>DuckDB's JDBC driver (2.0) always unpacks its library into the temporary directory under a
 *       new name when the library is on the class path, with no setting to load it from elsewhere.
 *       It is loaded at startup (on a thread of its own, while the command starts), and the
 *       unpacked copy is unlinked at once (on Linux a mapped file may be: the mapping stays), so
 *       nothing of it is left for a later kill to strand.
 * </ul>
 *
 * <p>Each step that fails (no cache directory can be written, a library changed its internals)
 * leaves that library to its own loader, as before: never a failed command.
 */
final class NativeLibraries {
  /** System property naming the cache directory instead of {@code $XDG_CACHE_HOME}. */
  static final String DIRECTORY_PROPERTY = "tokentrace.native.dir";

  private static final AtomicBoolean PREPARED = new AtomicBoolean();
  private static final AtomicReference<@Nullable Thread> BACKGROUND = new AtomicReference<>();

  private NativeLibraries() {}

  /**
   * Loads the native libraries as described above; once per process. Returns what it did (the
   * DuckDB step adds to the list from its own thread, see {@link #awaitBackground()}).
   */
  static List<String> prepare() {
    List<String> done = Collections.synchronizedList(new ArrayList<>());
    if (!PREPARED.compareAndSet(false, true)) {
      return done;
    }
    Path directory = directory(System.getenv(), System.getProperty("user.home"), version());
    ClassLoader loader = NativeLibraries.class.getClassLoader();
    try {
      Files.createDirectories(directory);
    } catch (IOException | RuntimeException e) {
      done.add("cache " + directory + ": " + e);
    }
    List<Step> steps =
        List.of(NativeLibraries::lz4, NativeLibraries::zstd, NativeLibraries::snappy);
    for (Step step : steps) {
      try {
        step.run(directory, loader, done);
      } catch (IOException | ReflectiveOperationException | RuntimeException | LinkageError e) {
        done.add("left to its own loader: " + e); // as before this class: nothing fails
      }
    }
    // DuckDB's library is 70 MB to unpack: a tenth of the demo's main thread in a JFR profile
    // (BENCHMARKS.md, "Ingest and lake, round 4"). Loaded on its own thread while the command
    // starts; the first DuckDB connection waits for it (the driver's class initialisation).
    Thread duckDb = new Thread(() -> duckDb(loader, done), "tokentrace-duckdb-native");
    duckDb.setDaemon(true);
    duckDb.start();
    BACKGROUND.set(duckDb);
    return done;
  }

  /**
   * Waits until the DuckDB library is loaded and its unpacked copy unlinked: call before {@code
   * System.exit}, so that a command that ends early leaves no half-unpacked copy behind.
   */
  static void awaitBackground() {
    Thread thread = BACKGROUND.get();
    if (thread == null) {
      return;
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private interface Step {
    void run(Path directory, ClassLoader loader, List<String> done)
        throws IOException, ReflectiveOperationException;
  }

  /**
   * The versioned cache directory: property, then {@code XDG_CACHE_HOME}, then {@code ~/.cache}.
   */
  static Path directory(Map<String, String> env, @Nullable String userHome, String version) {
    String configured = System.getProperty(DIRECTORY_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured).resolve(version);
    }
    String xdg = env.get("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
            ? Path.of(xdg)
            : Path.of(userHome == null ? "." : userHome, ".cache");
    return base.resolve("tokentrace").resolve("native").resolve(version);
  }

  private static String version() {
    String version = TokentraceMain.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  private static void lz4(Path directory, ClassLoader loader, List<String> done)
      throws IOException, ReflectiveOperationException {
    Class<?> nativeClass = load("net.jpountz.util.Native", loader);
    if (nativeClass == null) {
      return;
    }
    synchronized (nativeClass) {
      Field loaded = nativeClass.getDeclaredField("loaded");
      loaded.setAccessible(true);
      if (loaded.getBoolean(null)) {
        return;
      }
      String resource = (String) invokeStatic(nativeClass, "resourceName");
      Path library = extract(nativeClass.getResource(resource), directory, "liblz4-java", ".so");
      if (library != null) {
        System.load(library.toString());
        loaded.setBoolean(null, true);
        done.add("lz4 " + library);
      }
    }
  }

  private static void zstd(Path directory, ClassLoader loader, List<String> done)
      throws IOException, ReflectiveOperationException {
    Class<?> nativeClass = load("com.github.luben.zstd.util.Native", loader);
    if (nativeClass == null || (Boolean) invokeStatic(nativeClass, "isLoaded")) {
      return;
    }
    String resource = (String) invokeStatic(nativeClass, "resourceName");
    Path library = extract(nativeClass.getResource(resource), directory, "libzstd-jni", ".so");
    if (library != null) {
      System.load(library.toString());
      invokeStatic(nativeClass, "assumeLoaded");
      done.add("zstd " + library);
    }
  }

  private static void snappy(Path directory, ClassLoader loader, List<String> done)
      throws IOException, ReflectiveOperationException {
    Class<?> osInfo = load("org.xerial.snappy.OSInfo", loader);
    if (osInfo == null || System.getProperty("org.xerial.snappy.lib.path") != null) {
      return;
    }
    String folder = (String) invokeStatic(osInfo, "getNativeLibFolderPathForCurrentOS");
    URL resource = osInfo.getResource("/org/xerial/snappy/native/" + folder + "/libsnappyjava.so");
    Path library = extract(resource, directory, "libsnappyjava", ".so");
    if (library != null) {
      // snappy-java loads the file these name as it is, without unpacking its own copy
      System.setProperty("org.xerial.snappy.lib.path", library.getParent().toString());
      System.setProperty("org.xerial.snappy.lib.name", library.getFileName().toString());
      done.add("snappy " + library);
    }
  }

  private static void duckDb(ClassLoader loader, List<String> done) {
    try {
      if (load("org.duckdb.DuckDBNative", loader) != null) {
        Class.forName("org.duckdb.DuckDBNative", true, loader);
        for (Path deleted : NativeTempFiles.deleteMapped()) {
          done.add("unlinked " + deleted);
        }
      }
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      done.add("duckdb: " + e); // the driver reports it again when a connection is opened
    }
  }

  /**
   * Copies {@code resource} into {@code directory} as {@code <prefix>-<sha256 prefix><suffix>}
   * unless that file exists; written under a temporary name in the same directory and moved into
   * place atomically, so concurrent processes never load a half-written file.
   */
  static @Nullable Path extract(
      @Nullable URL resource, Path directory, String prefix, String suffix) throws IOException {
    if (resource == null) {
      return null;
    }
    byte[] bytes;
    try (InputStream in = resource.openStream()) {
      bytes = in.readAllBytes();
    }
    Path library = directory.resolve(prefix + "-" + sha256(bytes).substring(0, 16) + suffix);
    if (Files.isRegularFile(library) && Files.size(library) == bytes.length) {
      return library;
    }
    Path partial = Files.createTempFile(directory, prefix, ".partial");
    try {
      Files.write(partial, bytes);
      Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(partial);
    }
    return library;
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  private static @Nullable Class<?> load(String name, ClassLoader loader) {
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  private static Object invokeStatic(Class<?> type, String name)
      throws ReflectiveOperationException {
    Method method = type.getDeclaredMethod(name);
    method.setAccessible(true);
    return method.invoke(null);
  }
}
