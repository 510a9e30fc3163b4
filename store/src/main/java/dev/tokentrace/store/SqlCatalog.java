package dev.tokentrace.store;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jdbi.v3.core.locator.ClasspathSqlLocator;

/**
 * The SQL of {@code sql/}, loaded by name from the classpath ({@code "attribution/per_request"} is
 * {@code sql/attribution/per_request.sql}) verbatim: comments are kept, because Jdbi's
 * comment-stripping lexer would also eat DuckDB's {@code //} (docs/design.md#sql-files).
 * Thread-safe and cached.
 */
public final class SqlCatalog {
  /** snake_case path segments, no dots (Jdbi's {@code locate} turns dots into slashes). */
  private static final Pattern NAME = Pattern.compile("[a-z0-9_]+(/[a-z0-9_]+)*");

  private static final String ROOT = "sql/";
  private static final String CONNECTION = ROOT + "connection/offline.properties";
  private static final ClasspathSqlLocator LOCATOR = ClasspathSqlLocator.create();
  private static final ConcurrentMap<String, String> CACHE = new ConcurrentHashMap<>();

  private SqlCatalog() {}

  /**
   * The text of {@code sql/<name>.sql}.
   *
   * @throws IllegalArgumentException naming the path when the name is malformed or the file missing
   */
  public static String get(String name) {
    requireNonNull(name, "name is null");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "bad SQL name '"
              + name
              + "': expected snake_case segments such as attribution/per_request");
    }
    return CACHE.computeIfAbsent(name, SqlCatalog::load);
  }

  private static String load(String name) {
    String path = ROOT + name + ".sql";
    try {
      return LOCATOR.getResource(SqlCatalog.class.getClassLoader(), path);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("no SQL file " + path + " on the classpath", e);
    }
  }

  /**
   * The DuckDB settings every connection opens with ({@code sql/connection/offline.properties}:
   * extension auto-install and auto-load off, so DuckDB never reaches the network), as JDBC
   * connection properties. A new instance each call, for the caller to add its own settings to.
   */
  public static Properties connectionProperties() {
    Properties properties = new Properties();
    String text = LOCATOR.getResource(SqlCatalog.class.getClassLoader(), CONNECTION);
    try {
      properties.load(new StringReader(text));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + CONNECTION, e);
    }
    return properties;
  }

  /** The names of the schema files, in the order of {@code sql/schema/INDEX}. */
  public static List<String> schemaNames() {
    List<String> names = new ArrayList<>();
    for (String file : migrations().files()) {
      names.add("schema/" + file.substring(0, file.length() - ".sql".length()));
    }
    return List.copyOf(names);
  }

  /** The schema's migrations, as {@code sql/schema/INDEX} lists them. */
  public static SchemaMigrations migrations() {
    String index = LOCATOR.getResource(SqlCatalog.class.getClassLoader(), ROOT + "schema/INDEX");
    return new SchemaMigrations(
        index, file -> get("schema/" + file.substring(0, file.length() - ".sql".length())));
  }

  /**
   * The names of the {@code .sql} files directly in {@code sql/<directory>/}, sorted, e.g. {@code
   * names("queries")} gives {@code queries/slowest_requests, ...}. Works from a directory and from
   * a jar.
   */
  public static List<String> names(String directory) {
    String prefix = ROOT + directory + "/";
    URL url = SqlCatalog.class.getClassLoader().getResource(prefix);
    if (url == null) {
      return List.of();
    }
    List<String> files = "jar".equals(url.getProtocol()) ? jarFiles(url, prefix) : dirFiles(url);
    return files.stream()
        .filter(file -> file.endsWith(".sql") && !file.contains("/"))
        .map(file -> directory + "/" + file.substring(0, file.length() - ".sql".length()))
        .sorted()
        .toList();
  }

  private static List<String> dirFiles(URL url) {
    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
      return files.map(file -> file.getFileName().toString()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + url, e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot list " + url, e);
    }
  }

  private static List<String> jarFiles(URL url, String prefix) {
    List<String> files = new ArrayList<>();
    try {
      JarURLConnection connection = (JarURLConnection) url.openConnection();
      connection.setUseCaches(false);
      try (JarFile jar = connection.getJarFile()) {
        Enumeration<JarEntry> entries = jar.entries();
        while (entries.hasMoreElements()) {
          String entry = entries.nextElement().getName();
          if (entry.startsWith(prefix) && entry.length() > prefix.length()) {
            files.add(entry.substring(prefix.length()));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + url, e);
    }
    return files;
  }
}
