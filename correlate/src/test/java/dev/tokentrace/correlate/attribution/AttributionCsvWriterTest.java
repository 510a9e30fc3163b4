package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class AttributionCsvWriterTest {
  @TempDir Path dir;
  private Database database;

  @BeforeEach
  void attribute() throws Exception {
    database = Database.open(DatabaseSettings.inMemory());
    HandComputedDataset.load(database, dir);
    new Attributor(database, HandComputedDataset.CLOCK).run(AttributionSettings.defaults(), "test");
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void writesOneRowPerClientRequestWithTheContractColumnsFirst() throws Exception {
    Path out = dir.resolve("attribution.csv");
    long rows = new AttributionCsvWriter(database).write(out);

    List<String> lines = Files.readAllLines(out);
    assertThat(rows).isEqualTo(12);
    assertThat(lines).hasSize(13);
    assertThat(lines.get(0))
        .startsWith(
            "request_key,client_ttft_ms,client_e2e_ms,client_queue_ms,network_ms,queue_ms,prefill_ms,"
                + "decode_ms,dominant,")
        .isEqualTo(String.join(",", AttributionCsvWriter.COLUMNS));
    assertThat(lines.subList(1, 13))
        .containsExactly(
            "w1,600,700,0,99,1,500,100,prefill,99,10,10,11,11,bench-1,w1,1,vllm,gpu-0,otlp,matched,high,true,ok,false,,false,false,false,warm-up,id,,3498.5,client,ttft,,,,,,",
            "r1,60,480,3,32,5,40,400,decode,12,4.2,4,101,101,bench-1,r1,1,vllm,gpu-0,otlp,matched,high,false,ok,false,,false,false,true,,id,,3498.5,client,ttft,,,,,,",
            "r2,270,360,0,30,200,50,80,queue,20,1.8,1.6,51,51,bench-1,r2,8,vllm,gpu-0,otlp,matched,high,false,ok,false,,false,false,true,,id,,3498.5,client,ttft,,,,,,",
            "r3,330,440,0,38,2,300,100,prefill,28,5.5,5,21,21,bench-1,r3,8,vllm,gpu-0,otlp,matched,high,false,ok,false,,false,false,true,,id,,3498.5,client,ttft,,,,,,",
            "r4,55,500,0,-60,10,50,500,decode,-5,44.5,50,11,11,bench-1,r4,1,vllm,gpu-0,otlp,matched,high,false,ok,true,negative network_ms beyond tolerance,false,false,false,suspect,id,,3498.5,client,ttft,,,,,,",
            "r5,100,610,0,30,20,60,500,decode,20,21.25,20,25,26,bench-1,r5,1,vllm,gpu-0,otlp,matched,high,false,ok,false,,true,true,true,,id,,3498.5,client,ttft,,,,,,",
            "r6,50,100,0,,,,,,,5.556,,10,,bench-1,r6,1,vllm,gpu-0,otlp,duplicate,,false,ok,false,,false,false,false,duplicate key,id,server records,3498.5,client,ttft,,,,,,",
            "r7,50,200,0,,,,,,,16.667,,10,,bench-1,r7,1,vllm,gpu-0,text_log,arrival_only,low,false,ok,false,,false,false,false,no server durations,id,,3498.5,client,ttft,,,,,,",
            "r8,40,90,0,,,,,,,12.5,,5,,bench-1,r8,8,,,,client_only,,false,ok,false,,false,false,false,no server record,,,3498.5,client,ttft,,,,,,",
            "r11,70,140,0,,,,,,,10,,8,,bench-1,r11,8,vllm,gpu-0,otlp,duplicate,,false,ok,false,,false,false,false,duplicate key,id,client rows,3498.5,client,ttft,,,,,,",
            "r11,75,150,0,,,,,,,10.714,,8,,bench-1,r11,8,vllm,gpu-0,otlp,duplicate,,false,ok,false,,false,false,false,duplicate key,id,client rows,3498.5,client,ttft,,,,,,",
            "f1,,,0,,,,,,,,,,,bench-1,f1,1,,,,client_only,,false,timeout,false,,false,false,false,client error,,,3498.5,client,,,,,,,");
  }

  /**
   * Formula injection (docs/privacy.md#csv-cells): a client's request ID that a spreadsheet would
   * run is written with a leading quote, for each trigger character; negative numbers stay numbers;
   * the table keeps the raw ID.
   */
  @Test
  void aRequestIdThatASpreadsheetWouldRunIsNeutralisedAndTheTableKeepsItRaw() throws Exception {
    List<String> hostile =
        List.of("=cmd|' /C calc'!A0", "@SUM(1+1)", "+1+cmd|' /C calc'!A0", "-2+3");
    List<String> keys = List.of("r1", "r2", "r3", "r5");
    for (int i = 0; i < keys.size(); i++) {
      int index = i;
      database
          .jdbi()
          .useHandle(
              handle ->
                  handle
                      .createUpdate(
                          "UPDATE request_attribution SET request_key = :id, request_id = :id"
                              + " WHERE request_key = :key")
                      .bind("id", hostile.get(index))
                      .bind("key", keys.get(index))
                      .execute());
    }
    Path out = dir.resolve("attribution.csv");
    new AttributionCsvWriter(database).write(out);

    List<String> lines = Files.readAllLines(out);
    assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("'=cmd|' /C calc'!A0,"));
    assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("'@SUM(1+1),"));
    assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("'+1+cmd|' /C calc'!A0,"));
    assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("'-2+3,"));
    assertThat(lines.subList(1, lines.size()))
        .allSatisfy(line -> assertThat(line.charAt(0)).isNotIn('=', '+', '-', '@'));
    assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("r4,55,500,0,-60,"));
    List<String> stored =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery("SELECT request_id FROM request_attribution ORDER BY 1")
                        .mapTo(String.class)
                        .list());
    assertThat(stored).containsAll(hostile);
  }

  @Test
  void namesTheFileItCannotWrite() {
    Path out = dir.resolve("no/such/dir/attribution.csv");
    assertThatThrownBy(() -> new AttributionCsvWriter(database).write(out))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage("cannot write " + out);
  }
}
