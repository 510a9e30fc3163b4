package dev.tokentrace.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The knowledge the code cites lives in the repository (docs/design.md#build-rules): every {@code
 * docs/<path>.md[#anchor]} citation in sources, SQL, POMs, scripts, properties and Markdown
 * (samples' SOURCE.md included) names a file that exists and, with an anchor, a heading of that
 * file (GitHub's anchor slugs). Relative links between the documents under {@code docs/} are
 * checked the same way. Citations of the research notes and house documents that lived outside the
 * repository, and bare section signs, fail the test: they cannot be followed from a clone.
 *
 * <p>Reads the project root, found by walking up from the working directory (the module directory
 * under Maven) to the aggregator POM.
 */
final class DocsCitationsTest {
  /** A citation: {@code docs/formats/vllm.md#stats-line}, {@code docs/design.md}. */
  private static final Pattern CITATION =
      Pattern.compile("(?<![\\w/.-])docs/([\\w./-]+?\\.md)(?:#([\\w-]+))?");

  /** A relative Markdown link inside docs/: {@code (vllm.md#request-ids)}, {@code (#method)}. */
  private static final Pattern DOCS_LINK =
      Pattern.compile("\\]\\((?!https?:|/|docs/)([\\w./-]*?\\.md)?(?:#([\\w-]+))?\\)");

  /**
   * Forms that point outside the repository: the research notes' {@code formats/<x>.md} without
   * {@code docs/}, the design, stack and style documents by their file names, section signs. Built
   * from pieces so that this file does not contain what it forbids.
   */
  private static final Pattern OUTSIDE =
      Pattern.compile(
          String.join(
              "|",
              // a relative link between documents under docs/ is no citation of the notes
              "(?<![\\w/.-])(?<!\\]\\()formats/ ?(?:vllm|sglang|trtllm|clients)\\.md",
              "(?<![\\w/.-])(?:vllm|sglang|trtllm|clients)\\.md \u00a7",
              "(?<![\\w/.-])" + "DESIGN" + "\\.md",
              "(?<![\\w/.-])" + "STACK" + "\\.md",
              "(?<![\\w/.-])" + "STYLE" + "\\.md",
              "(?<![\\w/.-])seed" + "/",
              "\u00a7 ?\\d"));

  private static final Set<String> EXTENSIONS =
      Set.of("java", "sql", "md", "sh", "properties", "xml");

  /** Extensionless scripts that hold comments. */
  private static final Set<String> SCRIPTS = Set.of("run", "tokentrace");

  private static final Set<String> SKIPPED_DIRS = Set.of("target", "node_modules", ".git", ".idea");

  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");

  private final Map<Path, Set<String>> anchorsByFile = new HashMap<>();

  @Test
  void everyCitedDocumentAndHeadingExists() {
    Path root = projectRoot();
    List<String> problems = new ArrayList<>();
    Set<String> distinct = new TreeSet<>();
    int checked = 0;
    int files = 0;
    for (Path file : sourceFiles(root)) {
      String text = read(file);
      if (text == null) {
        continue;
      }
      files++;
      String rel = root.relativize(file).toString().replace('\\', '/');
      Matcher citation = CITATION.matcher(text);
      while (citation.find()) {
        checked++;
        distinct.add(citation.group());
        String problem = check(root.resolve("docs").resolve(citation.group(1)), citation.group(2));
        if (problem != null) {
          problems.add(where(rel, text, citation.start()) + citation.group() + ": " + problem);
        }
      }
      if (rel.startsWith("docs/") && rel.endsWith(".md")) {
        Matcher link = DOCS_LINK.matcher(text);
        while (link.find()) {
          if (link.group(1) == null && link.group(2) == null) {
            continue;
          }
          checked++;
          Path target = link.group(1) == null ? file : file.getParent().resolve(link.group(1));
          String problem = check(target.normalize(), link.group(2));
          if (problem != null) {
            problems.add(where(rel, text, link.start()) + link.group() + ": " + problem);
          }
        }
      }
      Matcher outside = OUTSIDE.matcher(text);
      while (outside.find()) {
        problems.add(
            where(rel, text, outside.start())
                + "'"
                + outside.group()
                + "' cites a document outside the repository; cite docs/ (see"
                + " docs/design.md#build-rules)");
      }
    }
    System.out.printf(
        "docs citations checked: %d (%d distinct) in %d files under %s; unresolvable: %d%n",
        checked, distinct.size(), files, root, problems.size());
    assertThat(checked).as("citations found (is the project root right?)").isPositive();
    assertThat(problems).as("citations that do not resolve").isEmpty();
  }

  @Test
  void slugsFollowGitHub() {
    assertThat(slug("Stats line")).isEqualTo("stats-line");
    assertThat(slug("V1 stats line")).isEqualTo("v1-stats-line");
    assertThat(slug("`meta_info` keys")).isEqualTo("meta_info-keys");
    assertThat(slug("C++ logger")).isEqualTo("c-logger");
    assertThat(slug("Time events (unverified)")).isEqualTo("time-events-unverified");
    assertThat(slug("Appender and transactions")).isEqualTo("appender-and-transactions");
  }

  /** Null when the file (and heading) exist, else what is missing. */
  private String check(Path file, String anchor) {
    if (!Files.isRegularFile(file)) {
      return "no such file";
    }
    if (anchor == null) {
      return null;
    }
    Set<String> anchors = anchorsByFile.computeIfAbsent(file, DocsCitationsTest::anchors);
    return anchors.contains(anchor) ? null : "no heading with anchor #" + anchor;
  }

  /** The anchors GitHub gives the headings of a Markdown file (fenced code is not a heading). */
  static Set<String> anchors(Path file) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : read(file).split("\n", -1)) {
      String stripped = line.strip();
      if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
        fenced = !fenced;
        continue;
      }
      Matcher heading = HEADING.matcher(line);
      if (fenced || !heading.matches()) {
        continue;
      }
      String base = slug(heading.group(2));
      int n = seen.merge(base, 1, Integer::sum) - 1;
      anchors.add(n == 0 ? base : base + "-" + n);
    }
    return anchors;
  }

  /**
   * GitHub's heading slug: link targets and emphasis marks dropped, lower case, every character
   * that is not a letter, digit, space, hyphen or underscore removed, spaces turned into hyphens.
   */
  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
    text = text.toLowerCase(Locale.ROOT);
    StringBuilder slug = new StringBuilder();
    text.codePoints()
        .forEach(
            c -> {
              if (c == ' ') {
                slug.append('-');
              } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
              }
            });
    return slug.toString();
  }

  private static String where(String rel, String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return rel + ":" + line + ": ";
  }

  /** The aggregator POM's directory, searched upwards from the working directory. */
  static Path projectRoot() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      Path pom = p.resolve("pom.xml");
      if (Files.isRegularFile(pom)
          && Files.isDirectory(p.resolve("parsers"))
          && read(pom).contains("<modules>")) {
        return p;
      }
    }
    throw new IllegalStateException("no project root (aggregator pom.xml) above " + dir);
  }

  private static List<Path> sourceFiles(Path root) {
    List<Path> files = new ArrayList<>();
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
              boolean hidden = name.startsWith(".") && !name.equals(".ci") && !dir.equals(root);
              return SKIPPED_DIRS.contains(name) || hidden
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              String name = file.getFileName().toString();
              int dot = name.lastIndexOf('.');
              String ext = dot < 0 ? "" : name.substring(dot + 1);
              if (attrs.isRegularFile()
                  && (EXTENSIONS.contains(ext) || (dot < 0 && SCRIPTS.contains(name)))) {
                files.add(file);
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot walk " + root, e);
    }
    files.sort(null);
    return files;
  }

  /** The file as UTF-8, or null for a file that is not UTF-8 text. */
  private static String read(Path file) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file)))
          .toString();
    } catch (CharacterCodingException e) {
      return null; // not text: nothing to cite in it (counted out of the files checked)
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
