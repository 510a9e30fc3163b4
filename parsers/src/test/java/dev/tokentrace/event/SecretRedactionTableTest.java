package dev.tokentrace.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.parse.Rejection;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The secret table of issue [3.2] item 2 (docs/privacy.md#secrets): every form a credential takes
 * in a server log, a launch command, an environment dump or a client error, each with a secret of
 * its own; not one 6-character piece of the secret may survive {@link Redaction#apply}, nor any
 * path a parsed line takes to storage (event JSON, reject excerpt and reason, the rejects topic's
 * value, the {@code rejects} row). The negative table holds text that must pass unchanged (request
 * IDs, model hashes, numbers, ordinary flags). All lines and secrets composed by us; the secrets
 * have the documented shapes and are not real.
 */
final class SecretRedactionTableTest {
  /** A form: {@code template} holds {@code S} where the secret goes. */
  record Form(String name, String template, String secret) {
    String text() {
      return template.replace("{S}", secret);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static final String TOKEN = "Zq7tK2pW9xLm4Rv8";
  static final String B64 = "dXNlcjpQYXNzdzByZA==";
  static final String AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY";

  static List<Form> forms() {
    return List.of(
        new Form("authorization bearer", "Authorization: Bearer {S}", TOKEN + "a1"),
        new Form("authorization bearer lower case", "authorization: bearer {S}", TOKEN + "b2"),
        new Form("authorization basic", "Authorization: Basic {S}", B64),
        new Form("curl header", "curl -H 'Authorization: Bearer {S}' http://h/v1", TOKEN + "c3"),
        new Form("json header", "{\"headers\": {\"Authorization\": \"Bearer {S}\"}}", TOKEN + "d4"),
        new Form("dict header basic", "{'Authorization': 'Basic {S}'}", "YWRtaW46c2VjcmV0UGFzcw"),
        new Form("bearer in prose", "401 for token Bearer {S} at /v1", TOKEN + "e5"),
        new Form("x-api-key header", "x-api-key: {S}", TOKEN + "f6"),
        new Form("azure api-key header", "api-key: {S}", "0f3e9a7c1b2d4e5f6a7b8c9d0e1f2a3b"),
        new Form("subscription key header", "Ocp-Apim-Subscription-Key: {S}", TOKEN + "g7"),
        new Form("cookie", "Cookie: session={S}; theme=dark", TOKEN + "h8"),
        new Form("--api-key space", "vllm serve m --api-key {S} --port 8000", TOKEN + "i9"),
        new Form("--api-key equals", "vllm serve m --api-key={S} --port 8000", TOKEN + "j0"),
        new Form("--hf-token space", "--hf-token {S}", TOKEN + "k1"),
        new Form("--hf-token equals", "--hf-token={S}", TOKEN + "l2"),
        new Form("--token", "--token {S}", TOKEN + "m3"),
        new Form("--password", "--password {S}", "hunter2-Correct-Horse"),
        new Form("--passwd equals", "--passwd={S}", "n0tMyRealPassw0rd"),
        new Form("--secret", "--secret {S}", TOKEN + "n4"),
        new Form("--client-secret equals", "--client-secret={S}", TOKEN + "o5"),
        new Form("--auth-token", "--auth-token {S}", TOKEN + "p6"),
        new Form("--ssl-keyfile-password", "--ssl-keyfile-password {S}", "pemPassphrase77"),
        new Form("--access-key", "--access-key {S}", TOKEN + "q7"),
        new Form("--secret-key equals", "--secret-key={S}", TOKEN + "r8"),
        new Form("--credentials", "--credentials {S}", TOKEN + "s9"),
        new Form("--admin-api-key quoted", "--admin-api-key '{S}'", TOKEN + "t0"),
        new Form(
            "argv list",
            "argv: ['vllm', 'serve', '--api-key', '{S}', '--port', '8000']",
            "u1" + TOKEN),
        new Form("json argv", "[\"--hf-token\", \"{S}\", \"--port\", \"8000\"]", "v2" + TOKEN),
        new Form(
            "namespace kwarg",
            "args: Namespace(model='m', api_key='{S}', port=8000)",
            "w3" + TOKEN),
        new Form("non-default args dict", "non-default args: {'api_key': '{S}'}", "x4" + TOKEN),
        new Form("env HF_TOKEN", "HF_TOKEN={S}", "y5" + TOKEN),
        new Form("env export OPENAI_API_KEY", "export OPENAI_API_KEY={S}", "z6" + TOKEN),
        new Form("env AWS_SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY={S}", AWS_SECRET),
        new Form("env AWS_SESSION_TOKEN", "AWS_SESSION_TOKEN={S}", "FwoGZXIvYXdzEBYaDH" + TOKEN),
        new Form("env HUGGING_FACE_HUB_TOKEN", "HUGGING_FACE_HUB_TOKEN={S} python", "a7" + TOKEN),
        new Form("env AZURE_OPENAI_API_KEY", "AZURE_OPENAI_API_KEY={S}", "b8" + TOKEN),
        new Form("docker -e", "docker run -e HF_TOKEN={S} vllm/vllm-openai", "c9" + TOKEN),
        new Form("env dump line", "env: PATH=/usr/bin HF_TOKEN={S} HOME=/root", "d0" + TOKEN),
        new Form("url userinfo", "https://user:{S}@api.example.com/v1", "e1" + TOKEN),
        new Form("redis password only", "redis://:{S}@kv:6379/0", "f2" + TOKEN),
        new Form("postgres url", "postgresql://admin:{S}@db.internal:5432/app", "g3" + TOKEN),
        new Form("aws key id", "using key id {S} for s3", "AKIAIOSFODNN7EXAMPLE"),
        new Form("aws session key id", "creds {S}/20261204", "ASIAY34FZKBOKMUTVV7A"),
        new Form("aws ini", "aws_secret_access_key = {S}", AWS_SECRET.replace('w', 'v')),
        new Form(
            "aws json",
            "{\"SecretAccessKey\": \"{S}\", \"Region\": \"eu\"}",
            AWS_SECRET.replace('J', 'Q')),
        new Form(
            "gcp service account private_key",
            "{\"type\": \"service_account\", \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{S}"
                + "\\n-----END PRIVATE KEY-----\\n\", \"client_email\": \"a@b.iam\"}",
            "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"),
        new Form(
            "pem block in text",
            "key: -----BEGIN RSA PRIVATE KEY----- {S} -----END RSA PRIVATE KEY----- loaded",
            "MIIEpAIBAAKCAQEA7bq98"),
        new Form(
            "google api key",
            "GET /v1/models?key={S} 403",
            "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"),
        new Form("google oauth token", "token ya29.{S} expired", "a0AfH6SMBx" + TOKEN),
        new Form(
            "azure storage connection string",
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={S};EndpointSuffix=core"
                + ".windows.net",
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="),
        new Form(
            "azure sas url",
            "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sp=r&sig={S}&se=2026",
            "r2Qm5kXvN8%2BpL3tY7wZ0aB4cD6eF9gH1iJ%3D"),
        new Form(
            "azure service bus",
            "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey={S}",
            "h4" + TOKEN + "="),
        new Form("azure shared access signature", "SharedAccessSignature={S}", "sr%3Dhub" + TOKEN),
        new Form(
            "hugging face token in prose",
            "login with hf_{S} ok",
            "AbCdEfGhIjKlMnOpQrStUvWxYz012345"),
        new Form(
            "openai key in prose",
            "key sk-{S} rejected",
            "Ab3dEf5hIj7lMn9pQr1tUv3xYz5AbCdEfGhIjKlMnOpQrSt"),
        new Form(
            "openai project key", "OpenAI(api=sk-proj-{S})", "Ab3dEf5hIj7lMn9pQr1tUv3xYz5_-Ab"),
        new Form("anthropic key", "sk-ant-api03-{S}", "Xy9zW8vU7tS6rQ5pO4nM3lK2jI1hG0f"),
        new Form(
            "github token",
            "remote https://ghp_{S}@github.com/o/r",
            "1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"),
        new Form("json api_key", "{\"model\": \"m\", \"api_key\": \"{S}\"}", "i5" + TOKEN),
        new Form("python dict api_key", "{'model': 'm', 'api_key': '{S}'}", "j6" + TOKEN),
        new Form("escaped json in a string", "\"{\\\"api_key\\\": \\\"{S}\\\"}\"", "k7" + TOKEN),
        new Form("yaml api_key", "api_key: {S}", "l8" + TOKEN),
        new Form("json token", "{\"token\": \"{S}\"}", "m9" + TOKEN),
        new Form(
            "jwt",
            "id_token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{S} invalid",
            "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV"),
        new Form("curl -u", "curl -u admin:{S} https://h", "o1" + TOKEN),
        new Form("query password", "GET /login?user=a&password={S}&next=/ 302", "p2" + TOKEN),
        new Form("slack token", "webhook xoxb-{S}", "123456789012-" + TOKEN),
        new Form("secret yaml quoted", "client_secret: \"{S}\"", "q3" + TOKEN),
        new Form("traceback kwarg", "ValueError: bad config OpenAI(api_key='{S}')", "r4" + TOKEN));
  }

  /** Text that holds no secret and must pass byte for byte. */
  static List<String> innocent() {
    return List.of(
        "request_id=chatcmpl-8f14e45fceea167a5a36dedd4bea2543 finished",
        "model=sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "max_tokens=2048, max_num_batched_tokens=8192, num_gpu_blocks=12345",
        "Avg prompt throughput: 12.5 tokens/s, Avg generation throughput: -3.5 tokens/s",
        "eos_token_id=2 eos_token: 2 pad_token=0",
        "Using tokenizer mode auto, trust_remote_code=False",
        "ssl_keyfile=/etc/ssl/key.pem ssl_certfile=/etc/ssl/cert.pem",
        "api_key=None, hf_token=None, 'admin_api_key': None, \"token\": null",
        "enable_auth=True use_auth_token: false",
        "otlp_traces_endpoint=http://collector:4318/v1/traces",
        "task-abcdefghijklmnopqrstuvwx and desk-0123456789abcdef0123",
        "Basic setup complete; Bearer authentication failed",
        "12:30:45 step=5 iteration: 17 request 123e4567-e89b-12d3-a456-426614174000",
        "GPU KV cache usage: 45.2%, Prefix cache hit rate: 0.0%",
        "--port 8000 --max-num-seqs 256 --tensor-parallel-size 2 --tokenizer meta/Llama-3-8B",
        "AKIA is a prefix, AKIASHORT is not a key, hf_transfer enabled, sk-learn",
        "Received request cmpl-5f3a-0 from 10.0.0.1:4312",
        "[redacted] and api_key='[redacted]' stay as they are");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void theRedactionLeavesNoPieceOfTheSecret(Form form) {
    String redacted = Redaction.apply(form.text());

    assertNoPiece(redacted, form);
    assertThat(redacted).contains(Redaction.REDACTED);
    assertThat(Redaction.apply(redacted)).as("applied twice").isEqualTo(redacted);
  }

  @Test
  void theTableHasAtLeastThirtyForms() {
    assertThat(forms()).hasSizeGreaterThanOrEqualTo(30);
    assertThat(forms().stream().map(Form::name).distinct()).hasSameSizeAs(forms());
  }

  @Test
  void innocentTextPassesUnchanged() {
    for (String text : innocent()) {
      assertThat(Redaction.apply(text)).as(text).isEqualTo(text);
    }
  }

  @Test
  void theKeyAndTheSchemeStaySoAReaderSeesOneWasSet() {
    assertThat(Redaction.apply("Authorization: Bearer " + TOKEN))
        .isEqualTo("Authorization: Bearer [redacted]");
    assertThat(Redaction.apply("--api-key " + TOKEN + " --port 8000"))
        .isEqualTo("--api-key [redacted] --port 8000");
    assertThat(Redaction.apply("{'api_key': '" + TOKEN + "', 'port': 8000}"))
        .isEqualTo("{'api_key': '[redacted]', 'port': 8000}");
    assertThat(Redaction.configValue("hf_token", TOKEN)).isEqualTo(Redaction.REDACTED);
    assertThat(Redaction.configValue("hf_token", "None")).isEqualTo("None");
  }

  /**
   * Each form on every path a line takes to storage: as an unrecognised line (a reject), with a NUL
   * byte, as bytes that are not UTF-8, inside an error notice and as a launch-arguments line; the
   * event JSON, the reject's excerpt and reason, the rejects topic's value and the {@code rejects}
   * row keep none of it.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void noPathFromALineToStorageKeepsTheSecret(Form form) {
    List<String> lines =
        List.of(
            form.text(),
            "\0" + form.text(),
            "ERROR 03-02 09:00:02 [api_server.py:9] request failed: " + form.text(),
            "INFO 03-02 09:00:00 [api_server.py:1] non-default args: {'model': 'm', 'cmd': '"
                + form.text().replace("'", "\"")
                + "'}",
            "INFO 03-02 09:00:00 [api_server.py:1] vLLM API server version " + form.text());
    List<String> stored = new ArrayList<>();
    for (Engine engine : Engine.values()) {
      LineParser parser = Parsers.create(engine, ParseSettings.of("i", 2026));
      ParseOutput output =
          new ParseOutput() {
            @Override
            public void event(EngineEvent event) {
              stored.add(EventJson.write(event));
            }

            @Override
            public void ignored(SourcePosition position, String rule) {}

            @Override
            public void rejected(Rejection rejection) {
              stored.add(rejection.message());
              stored.add(rejection.excerpt());
            }
          };
      long number = 1;
      for (String line : lines) {
        parser.parse(line, new SourcePosition("f.log", number++, 0), output);
      }
      parser.finish(output);
    }
    for (String line : lines) {
      byte[] raw = line.getBytes(StandardCharsets.UTF_8);
      stored.add(new String(Rejection.topicValue(raw), StandardCharsets.UTF_8));
      byte[] notUtf8 = new byte[raw.length + 1];
      notUtf8[0] = (byte) 0xC3; // a lead byte followed by ASCII: invalid UTF-8
      System.arraycopy(raw, 0, notUtf8, 1, raw.length);
      stored.add(new String(Rejection.topicValue(notUtf8), StandardCharsets.UTF_8));
      Rejection rejection =
          Rejection.of(new SourcePosition("f.log", 1, 0), null, "bad: " + line, line);
      stored.add(rejection.message());
      stored.add(rejection.excerpt());
      RejectRow row = new RejectRow("f.log", 1, 0, null, line, line, Instant.EPOCH);
      stored.add(row.reason());
      stored.add(row.excerpt());
    }
    assertThat(stored).isNotEmpty();
    for (String text : stored) {
      assertNoPiece(text, form);
    }
  }

  /** No 6-character window of the secret occurs in {@code text}. */
  static void assertNoPiece(String text, Form form) {
    String secret = form.secret();
    for (int i = 0; i + 6 <= secret.length(); i++) {
      String piece = secret.substring(i, i + 6);
      if (form.template().replace("{S}", "").contains(piece)) {
        continue; // the piece is part of the form's own text, not only of the secret
      }
      assertThat(text).as(form.name() + ": piece '" + piece + "' survived").doesNotContain(piece);
    }
  }
}
