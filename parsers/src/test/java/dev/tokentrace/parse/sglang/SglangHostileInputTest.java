package dev.tokentrace.parse.sglang;

import static dev.tokentrace.parse.sglang.SglangLineParserTest.descriptions;
import static dev.tokentrace.parse.sglang.SglangLineParserTest.parse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Rejection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Prompts built to confuse a request-line reader (quotes, braces, fake keys, unicode, escaped
 * newlines, a 1 MB prompt) must yield the right rid and numbers and never leak into events or
 * rejections; random mutations of every table line never make the raw parser throw or drop a line.
 */
final class SglangHostileInputTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static Stream<Arguments> nastyPrompts() {
    String huge = "SECRET " + "x{'\"]) ".repeat(1024 * 1024 / 8);
    return Stream.of(
        Arguments.of("quotes", "SECRET it's a \"test\" with 'both'"),
        Arguments.of("braces", "SECRET {'meta_info': {'id': 'evil', 'e2e_latency': 99}} }}]])"),
        Arguments.of("fake fields", "SECRET ', rid='evil', out={'meta_info': {'id': 'evil'}}"),
        Arguments.of("unicode", "SECRET 你好 🌍 مرحبا \u200f ü"),
        Arguments.of("escapes", "SECRET line1\nline2\ttab \\ backslash \u0001 \r"),
        Arguments.of(
            "log lookalike", "SECRET\n[2025-03-01 10:00:00 TP0] Decode batch. #running-req: 1"),
        Arguments.of("1 MB", huge));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nastyPrompts")
  void textRequestLinesKeepTheRidAndDropThePrompt(String name, String prompt) {
    String obj =
        "GenerateReqInput(text="
            + pyRepr(prompt)
            + ", input_ids=None, sampling_params={'max_new_tokens': 16, 'stop': ["
            + pyRepr(prompt)
            + "]}, rid='good-1', return_logprob=False)";
    RecordingSink sink =
        parse(
            "[2025-03-01 10:00:00] Receive: obj=" + obj,
            "[2025-03-01 10:00:01] Finish: obj="
                + obj
                + ", out={'text': "
                + pyRepr(prompt)
                + ", 'output_ids': [1, 2], 'meta_info': {'id': 'good-1', 'finish_reason':"
                + " {'type': 'stop', 'matched': "
                + pyRepr(prompt)
                + "}, 'prompt_tokens': 9, 'completion_tokens': 2, 'cached_tokens': 0,"
                + " 'e2e_latency': 0.25}}");

    assertThat(sink.reasons()).isEmpty();
    assertThat(descriptions(sink.events))
        .containsExactly(
            "request_arrived ts=2025-03-01T10:00:00.000Z request_id=good-1 request_key=good-1"
                + " max_tokens=16",
            "request_finished ts=2025-03-01T10:00:01.000Z request_id=good-1 request_key=good-1"
                + " output_tokens=2 finish_reason=stop",
            "request_timing ts=2025-03-01T10:00:01.000Z request_id=good-1 request_key=good-1"
                + " e2e_ms=250.0 prompt_tokens=9 output_tokens=2 cached_tokens=0"
                + " finish_reason=stop source_kind=meta_info");
    assertNoSecret(sink);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nastyPrompts")
  void jsonRequestLogsAndExportsKeepTheRidAndDropThePrompt(String name, String prompt)
      throws JsonProcessingException {
    Map<String, Object> obj = new LinkedHashMap<>();
    obj.put("text", prompt);
    obj.put("sampling_params", Map.of("max_new_tokens", 32, "stop", List.of(prompt)));
    obj.put("rid", "good-2");
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("id", "good-2");
    meta.put("finish_reason", Map.of("type", "length", "length", 32));
    meta.put("prompt_tokens", 100);
    meta.put("completion_tokens", 32);
    meta.put("e2e_latency", 1.5);
    Map<String, Object> received = new LinkedHashMap<>();
    received.put("timestamp", "2025-12-24T21:05:35.500000");
    received.put("event", "request.received");
    received.put("rid", "good-2");
    received.put("obj", obj);
    Map<String, Object> finished = new LinkedHashMap<>(received);
    finished.put("event", "request.finished");
    finished.put("out", Map.of("text", prompt, "meta_info", meta));
    Map<String, Object> export = new LinkedHashMap<>();
    export.put("request_parameters", JSON.writeValueAsString(obj));
    export.putAll(meta);

    RecordingSink sink =
        parse(
            JSON.writeValueAsString(received),
            JSON.writeValueAsString(finished),
            JSON.writeValueAsString(export));

    assertThat(sink.reasons()).isEmpty();
    assertThat(descriptions(sink.events))
        .containsExactly(
            "request_arrived ts=2025-12-24T21:05:35.500Z request_id=good-2 request_key=good-2"
                + " max_tokens=32",
            "request_finished ts=2025-12-24T21:05:35.500Z request_id=good-2 request_key=good-2"
                + " output_tokens=32 finish_reason=length",
            "request_timing ts=2025-12-24T21:05:35.500Z request_id=good-2 request_key=good-2"
                + " e2e_ms=1500.0 prompt_tokens=100 output_tokens=32 finish_reason=length"
                + " source_kind=meta_info",
            "request_timing request_id=good-2 request_key=good-2 e2e_ms=1500.0"
                + " prompt_tokens=100 output_tokens=32 finish_reason=length"
                + " source_kind=metrics_export");
    assertNoSecret(sink);
  }

  @Test
  void randomMutationsOfEveryTableLineNeverThrowNorDropALine() {
    List<String> corpus = corpus();
    Random random = new Random(20260101L);
    SglangLineParser parser = new SglangLineParser(ParseSettings.of("fuzz", 2025));
    RecordingSink sink = new RecordingSink();
    long number = 0;
    for (int round = 0; round < 40; round++) {
      for (String line : corpus) {
        String mutated = mutate(line, random);
        SourcePosition position = new SourcePosition("fuzz.log", ++number, 0);
        assertThatCode(() -> parser.parse(mutated, position, sink))
            .as(
                "line %s: %s",
                position, mutated.length() > 300 ? mutated.substring(0, 300) : mutated)
            .doesNotThrowAnyException();
      }
    }
    parser.finish(sink);

    assertThat(sink.reportedLines).hasSize((int) number);
    for (EngineEvent event : sink.events) {
      assertThat(EventJson.read(EventJson.write(event))).isEqualTo(event);
    }
  }

  @Test
  void hugeAndNonFiniteNumbersAreRejectedNotThrown() {
    String p = "[2025-03-01 10:00:00 TP0] ";
    RecordingSink sink =
        parse(
            p + "Decode batch. #running-req: " + "9".repeat(5000),
            p + "Decode batch. gen throughput (token/s): " + "9".repeat(400) + ".00",
            p + "Decode batch. token usage: NaN",
            "Finish: obj=GenerateReqInput(rid='x'), out={'meta_info': {'e2e_latency': inf}}",
            "Finish: obj=GenerateReqInput(rid='x'), out={'meta_info': {'queue_time': 1e306}}",
            "Finish: obj=GenerateReqInput(rid='x'), out={'meta_info': {'completion_tokens': 1e400}}",
            "{\"request_parameters\": \"\", \"id\": \"x\", \"prompt_tokens\": "
                + "9".repeat(400)
                + "}",
            // beyond Jackson's number length limit the line is not JSON we read
            "{\"request_parameters\": \"\", \"id\": \"x\", \"prompt_tokens\": "
                + "9".repeat(2000)
                + "}",
            "{\"event\": \"request.received\", \"rid\": \"x\", \"obj\": {\"sampling_params\":"
                + " {\"max_new_tokens\": 99999999999999999999999}}}",
            p
                + "Req Time Stats(rid=a, input len=1, output len=1, type=unified): queue_duration="
                + "9".repeat(500)
                + "ms, forward_duration=1.00ms, start_time=5.0");

    assertThat(sink.reasons())
        .containsExactly(
            "batch line: bad '#running-req' value",
            "batch line: bad 'gen throughput (token/s)' value",
            "batch line: bad 'token usage' value",
            "finish line: bad 'e2e_latency' value",
            "finish line: bad 'queue_time' value",
            "finish line: bad 'completion_tokens' value",
            "metrics record: bad 'prompt_tokens' value",
            "json line: malformed",
            "time stats line: bad 'queue_duration' value");
    assertThat(descriptions(sink.events))
        .containsExactly("request_arrived request_id=x request_key=x");
  }

  private static void assertNoSecret(RecordingSink sink) {
    for (EngineEvent event : sink.events) {
      assertThat(EventJson.write(event)).doesNotContain("SECRET");
    }
    for (Rejection rejection : sink.rejections) {
      assertThat(rejection.excerpt()).doesNotContain("SECRET");
    }
  }

  /** Every line of the tables, as the fuzz seed corpus. */
  static List<String> corpus() {
    List<String> lines = new ArrayList<>();
    Stream.of(
            SglangBatchLinesTest.prefillLines(),
            SglangBatchLinesTest.decodeLines(),
            SglangBatchLinesTest.envelopes(),
            SglangLineParserTest.requestLines(),
            SglangLineParserTest.noticeLines())
        .flatMap(rows -> rows)
        .forEach(row -> lines.add((String) row.get()[1]));
    Stream.concat(SglangLineParserTest.ignoredLines(), SglangLineParserTest.badLines())
        .forEach(row -> lines.add((String) row.get()[0]));
    lines.add("Traceback (most recent call last):");
    lines.add("  File \"/x.py\", line 1, in f");
    lines.add("[2024-12-22 10:00:00] Receive: obj=GenerateReqInput(text=\"SECRET open");
    return lines;
  }

  private static final String[] INSERTS = {
    "NaN",
    "Infinity",
    "-Infinity",
    "inf",
    "-1",
    "1e309",
    "99999999999999999999999999999",
    "'",
    "\"",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ", ",
    ": ",
    "=",
    "\\",
    "\u0000",
    "\r",
    "\u001B[0m",
    "\n",
    "None",
    "...",
    "[2025-03-01 10:00:00 TP0] ",
    "Decode batch. ",
    "obj=",
    "out={",
    "'meta_info': {",
    "\uD83C",
    "\uFFFF"
  };

  static String mutate(String line, Random random) {
    StringBuilder text = new StringBuilder(line);
    int edits = 1 + random.nextInt(4);
    for (int i = 0; i < edits && text.length() > 0; i++) {
      int at = random.nextInt(text.length());
      switch (random.nextInt(5)) {
        case 0:
          text.setLength(at);
          break;
        case 1:
          text.setCharAt(at, (char) random.nextInt(0x3000));
          break;
        case 2:
          text.insert(at, INSERTS[random.nextInt(INSERTS.length)]);
          break;
        case 3:
          text.delete(at, Math.min(text.length(), at + 1 + random.nextInt(20)));
          break;
        default:
          replaceNumber(text, at, random);
      }
    }
    return text.toString();
  }

  /** Replaces the digits at or after {@code at} with a huge or non-finite value. */
  private static void replaceNumber(StringBuilder text, int at, Random random) {
    int start = at;
    while (start < text.length() && !Character.isDigit(text.charAt(start))) {
      start++;
    }
    int end = start;
    while (end < text.length()
        && (Character.isDigit(text.charAt(end)) || text.charAt(end) == '.')) {
      end++;
    }
    if (start < text.length()) {
      text.replace(start, end, INSERTS[random.nextInt(7)]);
    }
  }

  /** Python 3 {@code repr()} of a str: the quote it picks, and its escapes. */
  static String pyRepr(String value) {
    char quote = value.indexOf('\'') >= 0 && value.indexOf('"') < 0 ? '"' : '\'';
    StringBuilder out = new StringBuilder().append(quote);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == quote || c == '\\') {
        out.append('\\').append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\x%02x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append(quote).toString();
  }
}
