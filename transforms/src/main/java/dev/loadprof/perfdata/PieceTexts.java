package dev.loadprof.perfdata;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.Reader;
import java.io.SequenceInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Puts the decoded pieces of one perf.data back together as one text, in the order one perf
 * script would have printed it: time slices one after the other, CPU pieces merged by time.
 */
public final class PieceTexts {
  private PieceTexts() {}

  /** Opens the whole text of the (decoded) pieces of one recording. */
  public static Reader open(List<PieceTask> tasks) throws IOException {
    List<PieceTask> sorted = new ArrayList<>(tasks);
    sorted.sort(Comparator.comparingInt(t -> t.piece().index()));
    if (sorted.get(0).piece().kind() != DecodePiece.Kind.CPU) {
      return new InputStreamReader(openTimeSlices(sorted), StandardCharsets.UTF_8);
    }
    List<BufferedReader> readers = new ArrayList<>();
    for (PieceTask t : sorted) {
      readers.add(Files.newBufferedReader(Path.of(t.decodedFile()), StandardCharsets.UTF_8));
    }
    PipedReader merged = new PipedReader(1 << 20);
    PipedWriter writer = new PipedWriter(merged);
    Thread merger = new Thread(() -> {
      try (PipedWriter w = writer) {
        PieceMerger.merge(readers, w);
      } catch (IOException e) {
        // The reader closed early (the parse failed); nothing to add.
      } finally {
        for (BufferedReader r : readers) {
          try {
            r.close();
          } catch (IOException ignored) {
            // read-only temp file
          }
        }
      }
    }, "merge-cpu-pieces");
    merger.setDaemon(true);
    merger.start();
    return merged;
  }

  /**
   * The whole text of time slices, one after the other, as bytes (to be parsed in parts); null
   * for CPU pieces, which are merged by time ({@link #open}).
   */
  public static InputStream openTimeSlices(List<PieceTask> tasks) throws IOException {
    List<PieceTask> sorted = new ArrayList<>(tasks);
    sorted.sort(Comparator.comparingInt(t -> t.piece().index()));
    if (sorted.get(0).piece().kind() == DecodePiece.Kind.CPU) {
      return null;
    }
    List<InputStream> streams = new ArrayList<>();
    for (PieceTask t : sorted) {
      streams.add(Files.newInputStream(Path.of(t.decodedFile())));
    }
    return new SequenceInputStream(Collections.enumeration(streams));
  }

  /** Deletes the pieces' temporary files. */
  public static void delete(List<PieceTask> tasks) {
    for (PieceTask t : tasks) {
      if (t.decodedFile() != null) {
        try {
          Files.deleteIfExists(Path.of(t.decodedFile()));
        } catch (IOException e) {
          // a leftover temp file is harmless
        }
      }
    }
  }
}
