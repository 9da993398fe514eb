package dev.loadprof.perfdata;

import java.io.Serializable;

/**
 * One piece of one input on its way through the pipeline: a text trace is a single WHOLE piece
 * with no header; a perf.data piece carries the recording's header, and once decoded, the local
 * file that holds its text.
 */
public record PieceTask(DecodePiece piece, PerfDataHeader header, String decodedFile)
    implements Serializable {

  public static PieceTask text() {
    return new PieceTask(DecodePiece.whole(), null, null);
  }

  public boolean isPerfData() {
    return header != null;
  }

  public PieceTask decodedInto(String file) {
    return new PieceTask(piece, header, file);
  }
}
