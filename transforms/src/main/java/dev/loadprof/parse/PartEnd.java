package dev.loadprof.parse;

/** How the text given to one read ends, when a trace is read in parts ({@link ParallelTextParser}). */
enum PartEnd {
  /**
   * Cut just before a record's header line: the pending record is sent at the end of the part,
   * as that header line would have sent it.
   */
  CUT,
  /** The end of the trace: its damage, if any, then a last line without a line end. */
  END,
  /**
   * Reading the trace failed after this part: its complete lines are read, and nothing more
   * (a cut last line is dropped, as a direct read that fails drops it).
   */
  FAILED
}
