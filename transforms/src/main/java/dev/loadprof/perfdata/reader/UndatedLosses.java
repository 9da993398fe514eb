package dev.loadprof.perfdata.reader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * perf record's undated totals of lost samples (PERF_RECORD_LOST_SAMPLES, one per event and ring
 * buffer at the end of the recording, time 0), which {@code perf script --show-lost-events}
 * never prints: the perf script path adds them to the dated PERF_RECORD_LOST it did print, so its
 * lost events are those of the native reader and of {@code perf report --stats} (which counts
 * these totals) even when they exceed the dated drops (8002 against 7977 in a one-page-buffer
 * recording).
 */
public final class UndatedLosses {
  private UndatedLosses() {}

  /**
   * The sum of the file's undated LOST_SAMPLES counts; 0 when there are none or the file cannot
   * be read so (its reader says why elsewhere).
   */
  public static long of(Path perfData) {
    try {
      PerfDataFile file = PerfDataFile.open(perfData);
      RecordFields fields = new RecordFields(file.attrs, file.attrById);
      long lost = 0;
      try (RecordStream stream = new RecordStream(
          FileChannel.open(perfData, StandardOpenOption.READ), file.dataOffset, file.dataSize)) {
        for (byte[] record; (record = stream.next()) != null; ) {
          ByteBuffer b = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
          if (b.getInt(0) == RecordDispatcher.LOST_SAMPLES && record.length >= 16) {
            fields.trailer(b);
            lost += fields.time <= 0 ? b.getLong(8) : 0;
          }
        }
      }
      return lost;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
