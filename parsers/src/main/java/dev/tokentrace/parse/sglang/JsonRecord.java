package dev.tokentrace.parse.sglang;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The fields kept from one SGLang JSON line, read with Jackson's streaming parser so that prompt
 * and output strings are skipped without being decoded (docs/formats/sglang.md#request-lines,
 * docs/formats/sglang.md#metrics-export-file):
 *
 * <ul>
 *   <li>{@code --log-requests-format json} (2025-12-24+): {@code {"timestamp": "<local iso>",
 *       "event": "request.received" | "request.finished" | "request.received.openai", "rid": ..,
 *       "obj": {..}, "out": {.., "meta_info": {..}}, "headers": {..}}};
 *   <li>{@code --export-metrics-to-file} (v0.5.5.post3+): {@code {"request_parameters": "<json
 *       string>", <meta_info keys>...}}, no event and no timestamp;
 *   <li>{@code SGLANG_LOG_SCHEDULER_STATUS_TARGET} (2026-01-10+): {@code {"event":
 *       "scheduler.status", ...}}.
 * </ul>
 *
 * Python's {@code json.dumps} writes {@code NaN} and {@code Infinity}, so they are accepted here
 * and rejected as values by {@link MetaInfo}. A value of an unexpected JSON type is a bad value.
 */
final class JsonRecord {
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  @Nullable String timestamp;
  @Nullable String event;
  final List<String> rids = new ArrayList<>(1);
  @Nullable Integer maxNewTokens;
  boolean exportRecord;

  /** meta_info: {@code out.meta_info} of a request log, the top level of an export record. */
  final MetaInfo meta = new MetaInfo();

  private final MetaInfo topLevel = new MetaInfo();

  private JsonRecord() {}

  /**
   * Reads one JSON object line.
   *
   * @throws IOException when it is not well-formed JSON (or breaks Jackson's size limits)
   */
  static JsonRecord read(String line) throws IOException {
    JsonRecord record = new JsonRecord();
    try (JsonParser parser = FACTORY.createParser(line)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not a json object");
      }
      record.readTop(parser);
      if (parser.nextToken() != null) {
        throw new IOException("text after the json object");
      }
    }
    return record;
  }

  /** The meta_info that applies: the nested one of a request log, else the top-level one. */
  MetaInfo metaInfo() {
    return exportRecord ? topLevel : meta;
  }

  private void readTop(JsonParser parser) throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (name) {
        case "timestamp":
          timestamp = value == JsonToken.VALUE_STRING ? parser.getText() : null;
          break;
        case "event":
          event = value == JsonToken.VALUE_STRING ? parser.getText() : null;
          break;
        case "rid":
          readRids(parser, value);
          break;
        case "obj":
          readObj(parser, value);
          break;
        case "out":
          readOut(parser, value);
          break;
        case "request_parameters":
          exportRecord = true;
          parser.skipChildren();
          break;
        default:
          readMetaValue(parser, value, MetaInfo.Key.of(name), topLevel);
      }
    }
  }

  private void readRids(JsonParser parser, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      addRid(parser.getText());
    } else if (value == JsonToken.START_ARRAY) {
      for (JsonToken item = parser.nextToken();
          item != JsonToken.END_ARRAY;
          item = parser.nextToken()) {
        if (item == JsonToken.VALUE_STRING) {
          addRid(parser.getText());
        } else {
          parser.skipChildren();
        }
      }
    }
  }

  private void addRid(String rid) {
    if (!rid.isBlank()) {
      rids.add(rid);
    }
  }

  private void readObj(JsonParser parser, JsonToken value) throws IOException {
    if (value != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken field = parser.nextToken();
      if (name.equals("rid") && rids.isEmpty()) {
        readRids(parser, field);
      } else if (name.equals("sampling_params") && field == JsonToken.START_OBJECT) {
        readSamplingParams(parser);
      } else {
        parser.skipChildren();
      }
    }
  }

  private void readSamplingParams(JsonParser parser) throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken field = parser.nextToken();
      if (name.equals("max_new_tokens")
          && field == JsonToken.VALUE_NUMBER_INT
          && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
        long max = parser.getLongValue();
        maxNewTokens = max >= 0 && max <= Integer.MAX_VALUE ? (int) max : null;
      } else {
        parser.skipChildren();
      }
    }
  }

  private void readOut(JsonParser parser, JsonToken value) throws IOException {
    if (value != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken field = parser.nextToken();
      if (name.equals("meta_info") && field == JsonToken.START_OBJECT) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String key = parser.currentName();
          readMetaValue(parser, parser.nextToken(), MetaInfo.Key.of(key), meta);
        }
      } else {
        parser.skipChildren();
      }
    }
  }

  private static void readMetaValue(
      JsonParser parser, JsonToken value, MetaInfo.@Nullable Key key, MetaInfo target)
      throws IOException {
    if (key == null || value == JsonToken.VALUE_NULL) {
      parser.skipChildren();
    } else if (key == MetaInfo.Key.ID) {
      if (value == JsonToken.VALUE_STRING) {
        target.id(parser.getText());
      }
    } else if (key == MetaInfo.Key.FINISH_REASON) {
      readFinishReason(parser, value, target);
    } else if (value.isNumeric()) {
      target.number(key, parser.getDoubleValue());
    } else {
      target.bad(key);
      parser.skipChildren();
    }
  }

  private static void readFinishReason(JsonParser parser, JsonToken value, MetaInfo target)
      throws IOException {
    if (value == JsonToken.VALUE_STRING) {
      target.finishReason(parser.getText());
      return;
    }
    if (value != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonToken field = parser.nextToken();
      if (field == JsonToken.VALUE_STRING && name.equals("type")) {
        target.finishReason(parser.getText());
      } else if (field == JsonToken.VALUE_STRING && name.equals("message")) {
        target.abortMessage(parser.getText());
      } else {
        parser.skipChildren();
      }
    }
  }
}
