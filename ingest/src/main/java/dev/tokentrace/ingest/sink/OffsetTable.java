package dev.tokentrace.ingest.sink;

import dev.tokentrace.ingest.kafka.Topics;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** Reads {@code kafka_offsets}: the next offset to consume per partition, as last committed. */
final class OffsetTable {
  private static final String SELECT = "SELECT topic, part, next_offset FROM kafka_offsets";

  private OffsetTable() {}

  static Map<TopicPartition, Long> read(Connection connection, Topics topics) throws SQLException {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(SELECT)) {
      while (result.next()) {
        String topic = result.getString(1);
        if (topics.all().contains(topic)) {
          offsets.put(new TopicPartition(topic, result.getInt(2)), result.getLong(3));
        }
      }
    }
    return offsets;
  }
}
