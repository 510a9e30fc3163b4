package dev.tokentrace.clients;

import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineSplitter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

/**
 * Apache JMeter result files, JTL (format id {@value #FORMAT}; docs/formats/gateways.md#jmeter):
 * CSV with any subset of the {@code jmeter.save.saveservice.*} columns and a header line, CSV
 * without a header in JMeter 5.6's default column set, and XML ({@code <testResults>}).
 *
 * <p>JMeter sees the HTTP exchange, not the SSE stream: {@code elapsed} (to the last byte) is the
 * end-to-end time and {@code Latency} (to the first byte, for a stream the response header or a
 * role-only chunk rather than the first token) is kept as the time to first byte ({@code
 * http_wait_ms}), never as TTFT; rows are attributed by the end-to-end view. The request ID is a
 * {@code sample_variables} column: {@code --id-column}, else the first present of {@link
 * #ID_COLUMNS}. Rows of the same request ID next to each other (a parent sample and its
 * sub-samples, a transaction controller's sample) are one request: the longest is kept, the others
 * are ignored and counted in one warning.
 */
final class JmeterClientTimingReader implements ClientTimingReader {
  static final String FORMAT = "jmeter";

  /** Where the request ID is looked for, in order, when {@code --id-column} is not given. */
  static final List<String> ID_COLUMNS = List.of("request_id", "x_request_id", "X-Request-Id");

  /** JMeter 5.6's default CSV columns, for files without a header line. */
  static final List<String> DEFAULT_COLUMNS =
      List.of(
          "timeStamp",
          "elapsed",
          "label",
          "responseCode",
          "responseMessage",
          "threadName",
          "dataType",
          "success",
          "failureMessage",
          "bytes",
          "sentBytes",
          "grpThreads",
          "allThreads",
          "URL",
          "Latency",
          "IdleTime",
          "Connect");

  private static final int MAX_LINE_BYTES = 256 * 1024;
  private static final String DELIMITERS = ",\t;|";

  private final @Nullable String idColumn;

  JmeterClientTimingReader(ClientReadSettings settings) {
    this.idColumn = settings.idColumn();
  }

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    String first = head.firstLine().strip();
    if (first.startsWith("<?xml") && head.text().contains("<testResults")
        || first.startsWith("<testResults")) {
      return Recognition.yes();
    }
    if (first.startsWith("timeStamp") && first.contains("elapsed")) {
      return Recognition.yes();
    }
    if (first.matches("\\d{13},\\d+,.*")) {
      return Recognition.yes();
    }
    return Recognition.no(
        "not a JMeter JTL (no <testResults>, no timeStamp,elapsed header, no epoch-ms row)");
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    FileHead head = FileHead.of(file);
    String first = head.firstLine().strip();
    if (first.startsWith("<")) {
      readXml(file, sink);
    } else {
      readCsv(file, sink);
    }
  }

  // ---------------------------------------------------------------------------------- CSV

  private void readCsv(Path file, ClientReaderOutput sink) {
    String path = file.toString();
    Merger merger = new Merger(sink);
    try (InputStream in = Files.newInputStream(file)) {
      LineSplitter.Lines lines = LineSplitter.lines(in, MAX_LINE_BYTES);
      @Nullable Columns columns = null;
      LineSplitter.@Nullable Line line;
      while ((line = lines.next()) != null) {
        SourcePosition position = new SourcePosition(path, line.number(), line.offset());
        String text =
            line.number() == 1 && line.text().startsWith("\uFEFF")
                ? line.text().substring(1)
                : line.text();
        if (text.isBlank() && !line.tooLong()) {
          continue;
        }
        try {
          if (line.tooLong()) {
            throw new BadField("line too long (over " + MAX_LINE_BYTES + " bytes)");
          }
          if (line.invalidUtf8()) {
            throw new BadField("invalid utf-8");
          }
          if (text.startsWith("timeStamp")) {
            Columns header = Columns.header(text);
            if (columns != null && !columns.names.equals(header.names)) {
              sink.warning(
                  position,
                  "jmeter: the column set changes here (a new header line); later rows are read"
                      + " with it");
            }
            columns = header;
            continue;
          }
          if (columns == null) {
            columns = Columns.defaults();
            sink.warning(
                position,
                "jmeter: no header line: reading JMeter 5.6's default columns, the first extra"
                    + " column as the request id");
          }
          List<String> fields = columns.split(text);
          Map<String, String> values = columns.values(fields, line.number() == 1);
          merger.offer(sample(position, values, columns.idColumn(idColumn)));
        } catch (BadField e) {
          sink.rejected(new ClientRejection(position, e.getMessage(), line.tooLong() ? "" : text));
        }
      }
      merger.finish(new SourcePosition(path, 1, 0));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /** The column names of a header line (or the defaults) and the delimiter. */
  private record Columns(List<String> names, char delimiter, boolean headerless) {
    static Columns header(String text) throws BadField {
      char delimiter = ',';
      for (char candidate : DELIMITERS.toCharArray()) {
        if (text.startsWith("timeStamp" + candidate)) {
          delimiter = candidate;
          break;
        }
      }
      List<String> names = parse(text, delimiter, "header: ");
      if (!names.contains("elapsed")) {
        throw new BadField("header: no 'elapsed' column (jmeter.save.saveservice.time=true)");
      }
      return new Columns(names, delimiter, false);
    }

    static Columns defaults() {
      return new Columns(DEFAULT_COLUMNS, ',', true);
    }

    List<String> split(String text) throws BadField {
      return parse(text, delimiter, "");
    }

    Map<String, String> values(List<String> fields, boolean firstLine) throws BadField {
      Map<String, String> values = new HashMap<>();
      if (headerless) {
        if (fields.size() <= names.size()) {
          throw new BadField(
              "no request id column: a JTL without header needs JMeter 5.6's default columns and"
                  + " then the sample_variables, the request id first ("
                  + fields.size()
                  + " columns)");
        }
        for (int i = 0; i < names.size(); i++) {
          values.put(names.get(i), fields.get(i));
        }
        values.put(":id", fields.get(names.size()));
        return values;
      }
      if (fields.size() != names.size()) {
        throw new BadField(
            "wrong column count: "
                + fields.size()
                + ", expected "
                + names.size()
                + " (the column set changed without a header line?)");
      }
      for (int i = 0; i < names.size(); i++) {
        values.put(names.get(i), fields.get(i));
      }
      return values;
    }

    String idColumn(@Nullable String wanted) throws BadField {
      if (headerless) {
        return ":id";
      }
      if (wanted != null) {
        if (!names.contains(wanted)) {
          throw new BadField("no '" + wanted + "' column (--id-column)");
        }
        return wanted;
      }
      for (String candidate : ID_COLUMNS) {
        if (names.contains(candidate)) {
          return candidate;
        }
      }
      throw new BadField(
          "no request id column (sample_variables: one of "
              + String.join(", ", ID_COLUMNS)
              + ", or name it with --id-column)");
    }
  }

  private static List<String> parse(String text, char delimiter, String prefix) throws BadField {
    try (CSVParser parser =
        CSVParser.parse(text, CSVFormat.RFC4180.builder().setDelimiter(delimiter).build())) {
      List<CSVRecord> records = parser.getRecords();
      return records.isEmpty() ? List.of() : records.get(0).toList();
    } catch (IOException | UncheckedIOException e) {
      throw new BadField(prefix + "malformed csv (unbalanced quote)");
    }
  }

  // ---------------------------------------------------------------------------------- XML

  private void readXml(Path file, ClientReaderOutput sink) {
    String path = file.toString();
    Merger merger = new Merger(sink);
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    long subSamples = 0;
    try (InputStream in = Files.newInputStream(file)) {
      XMLStreamReader xml = factory.createXMLStreamReader(in);
      int depth = 0;
      try {
        while (xml.hasNext()) {
          int event = xml.next();
          if (event == XMLStreamConstants.START_ELEMENT) {
            depth++;
            String name = xml.getLocalName();
            if (depth == 1 && !name.equals("testResults")) {
              sink.rejected(
                  new ClientRejection(
                      new SourcePosition(path, xml.getLocation().getLineNumber(), 0),
                      "jmeter: the XML root is <" + name + ">, not <testResults> (file skipped)",
                      ""));
              return;
            }
            if (depth > 2 && (name.equals("httpSample") || name.equals("sample"))) {
              subSamples++; // a sub-sample of the request above it: docs/formats/gateways.md#jmeter
            }
            if (depth == 2 && (name.equals("httpSample") || name.equals("sample"))) {
              SourcePosition position =
                  new SourcePosition(path, xml.getLocation().getLineNumber(), 0);
              Map<String, String> values = new HashMap<>();
              for (int i = 0; i < xml.getAttributeCount(); i++) {
                values.put(xml.getAttributeLocalName(i), xml.getAttributeValue(i));
              }
              try {
                merger.offer(sample(position, xmlValues(values), xmlId(values)));
              } catch (BadField e) {
                sink.rejected(new ClientRejection(position, e.getMessage(), ""));
              }
            }
          } else if (event == XMLStreamConstants.END_ELEMENT) {
            depth--;
          }
        }
      } catch (XMLStreamException e) {
        sink.rejected(
            new ClientRejection(
                new SourcePosition(path, Math.max(1, e.getLocation().getLineNumber()), 0),
                "jmeter: malformed XML, the rest of the file is skipped",
                ""));
      }
      merger.finish(new SourcePosition(path, 1, 0));
      if (subSamples > 0) {
        sink.warning(
            new SourcePosition(path, 1, 0),
            "jmeter: ignored "
                + subSamples
                + " sub-sample(s) nested in a request's sample (the parent sample is the request)");
      }
    } catch (XMLStreamException e) {
      throw new UncheckedIOException("cannot read " + path, new IOException(e.getMessage(), e));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /** XML attribute names (t, lt, ct, ts, s, rc, lb) as the CSV column names. */
  private static Map<String, String> xmlValues(Map<String, String> attributes) {
    Map<String, String> values = new HashMap<>(attributes);
    Map<String, String> names =
        Map.of(
            "t",
            "elapsed",
            "lt",
            "Latency",
            "ct",
            "Connect",
            "ts",
            "timeStamp",
            "s",
            "success",
            "rc",
            "responseCode",
            "lb",
            "label");
    names.forEach(
        (attribute, column) -> {
          String value = attributes.get(attribute);
          if (value != null) {
            values.put(column, value);
          }
        });
    return values;
  }

  private String xmlId(Map<String, String> attributes) throws BadField {
    if (idColumn != null) {
      return idColumn;
    }
    for (String candidate : ID_COLUMNS) {
      if (attributes.containsKey(candidate)) {
        return candidate;
      }
    }
    throw new BadField(
        "no request id attribute (sample_variables: one of "
            + String.join(", ", ID_COLUMNS)
            + ", or name it with --id-column)");
  }

  // ---------------------------------------------------------------------------------- rows

  /** One sample's row. */
  private static Sample sample(SourcePosition position, Map<String, String> values, String idColumn)
      throws BadField {
    String id = values.getOrDefault(idColumn, "").strip();
    if (id.isEmpty() || id.equals("null")) {
      throw new BadField("missing value for '" + idColumn + "'");
    }
    if (id.length() > ClientRow.MAX_REQUEST_ID) {
      throw new BadField(
          "'" + idColumn + "' longer than " + ClientRow.MAX_REQUEST_ID + " characters");
    }
    String stamp = values.getOrDefault("timeStamp", "").strip();
    if (!stamp.matches("\\d{10,16}")) {
      throw new BadField(
          "bad 'timeStamp' value "
              + ClientFields.quote(stamp)
              + " (epoch ms expected: jmeter.save.saveservice.timestamp_format=ms)");
    }
    Instant start = Instant.ofEpochMilli(Long.parseLong(stamp));
    Double elapsed = ClientFields.duration("elapsed", values.getOrDefault("elapsed", ""));
    Double latency = ClientFields.duration("Latency", values.getOrDefault("Latency", ""));
    Double connect = ClientFields.duration("Connect", values.getOrDefault("Connect", ""));
    String code = values.getOrDefault("responseCode", "").strip();
    String success = values.getOrDefault("success", "").strip().toLowerCase(Locale.ROOT);
    boolean ok = success.isEmpty() ? code.matches("[23]\\d\\d") : success.equals("true");
    if (!success.isEmpty() && !success.equals("true") && !success.equals("false")) {
      throw new BadField("bad 'success' value " + ClientFields.quote(success));
    }
    String status =
        ok ? ClientTiming.STATUS_OK : code.matches("\\d{3}") ? "http " + code : "jmeter: failed";
    if (ok) {
      ClientFields.required("elapsed", elapsed);
    }
    if (latency != null && elapsed != null && latency > elapsed) {
      throw new BadField("'Latency' > 'elapsed' (" + latency + " > " + elapsed + ")");
    }
    ClientDetail detail =
        latency == null && connect == null
            ? ClientDetail.NONE
            : new ClientDetail(null, connect, null, latency, null, null, null);
    ClientTiming timing =
        new ClientTiming(
            position,
            id,
            RequestKeys.normalize(id),
            start,
            null,
            null,
            elapsed,
            null,
            null,
            null,
            null,
            status,
            false,
            IdKind.SENT,
            detail,
            null);
    return new Sample(timing, id, elapsed == null ? -1 : elapsed);
  }

  private record Sample(ClientTiming timing, String id, double elapsed) {}

  /**
   * Folds adjacent samples of one request ID (parent and sub-samples, transaction controllers) into
   * the longest, counting the others.
   */
  private static final class Merger {
    private final ClientReaderOutput sink;
    private @Nullable Sample pending;
    private long merged;

    Merger(ClientReaderOutput sink) {
      this.sink = sink;
    }

    void offer(Sample sample) {
      Sample held = pending;
      if (held != null && held.id().equals(sample.id())) {
        merged++;
        if (sample.elapsed() > held.elapsed()) {
          pending = sample;
        }
        return;
      }
      if (held != null) {
        sink.row(held.timing());
      }
      pending = sample;
    }

    void finish(SourcePosition file) {
      if (pending != null) {
        sink.row(pending.timing());
        pending = null;
      }
      if (merged > 0) {
        sink.warning(
            file,
            "jmeter: ignored "
                + merged
                + " sample(s) sharing the request id of the sample next to them (sub-samples or"
                + " transaction samples of one request; the longest is kept)");
      }
    }
  }
}
