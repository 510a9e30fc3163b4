package dev.tokentrace.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The one Python-literal lexer, both ways it is used: the static skips of vLLM's request lines and
 * the pull reader of SGLang's request objects, with the same quoting and bracket rules.
 */
final class PythonReprTest {
  @Test
  void staticSkipsEndAfterTheValueAndIgnoreBracketsInsideStrings() {
    String line =
        "prompt: 'a \\' ) [', params: SamplingParams(n=1, stop=[')'], x={'k': 2}), ids: [1, 2, 3]";
    int prompt = line.indexOf('\'');
    int promptEnd = PythonRepr.skipString(line, prompt);
    assertThat(line.substring(prompt, promptEnd)).isEqualTo("'a \\' ) ['");
    int call = line.indexOf("SamplingParams");
    int callEnd = PythonRepr.skipCall(line, call);
    assertThat(line.substring(call, callEnd)).endsWith("x={'k': 2})");
    int list = line.indexOf("[1");
    int listEnd = PythonRepr.skipBracketed(line, list);
    assertThat(PythonRepr.countElements(line, list, listEnd)).isEqualTo(3);
    assertThat(PythonRepr.countElements("[]", 0, 2)).isZero();
    assertThat(PythonRepr.skipStringOrNone("x None", 2)).isEqualTo(6);
  }

  @Test
  void staticSkipsSayWhenAValueIsCut() {
    assertThat(PythonRepr.skipString("'never closed", 0)).isEqualTo(PythonRepr.UNTERMINATED);
    assertThat(PythonRepr.skipBracketed("[1, 2", 0)).isEqualTo(PythonRepr.UNTERMINATED);
    assertThat(PythonRepr.skipCall("Name[1]", 0)).isEqualTo(PythonRepr.UNTERMINATED);
    assertThat(PythonRepr.skipString("x", 0)).isEqualTo(PythonRepr.UNTERMINATED);
  }

  @Test
  void thePullReaderReadsKeysAndScalarsAndSkipsTheRest() {
    PythonRepr reader =
        new PythonRepr(
            "Req(rid='r\\x41', text='[(skip', sampling={'max_new_tokens': 8}, n=None)", 0);
    assertThat(reader.openCall()).isTrue();
    assertThat(reader.nextKey()).isEqualTo("rid");
    assertThat(reader.readScalar()).isEqualTo(PythonRepr.Scalar.STRING);
    assertThat(reader.string()).isEqualTo("rA");
    assertThat(reader.nextKey()).isEqualTo("text");
    assertThat(reader.nextKey()).isEqualTo("sampling");
    assertThat(reader.openDict()).isTrue();
    assertThat(reader.nextKey()).isEqualTo("max_new_tokens");
    assertThat(reader.readScalar()).isEqualTo(PythonRepr.Scalar.NUMBER);
    assertThat(reader.number()).isEqualTo(8.0);
    assertThat(reader.nextKey()).isNull();
    assertThat(reader.nextKey()).isEqualTo("n");
    assertThat(reader.readScalar()).isEqualTo(PythonRepr.Scalar.NONE);
    assertThat(reader.nextKey()).isNull();
    assertThat(reader.failed()).isFalse();
  }
}
