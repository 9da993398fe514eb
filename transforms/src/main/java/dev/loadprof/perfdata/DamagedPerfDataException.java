package dev.loadprof.perfdata;

import dev.loadprof.model.BadInput;
import java.io.IOException;

/**
 * perf could not read a perf.data file because the file itself is damaged (a cut or overwritten
 * header or record): bad input, not a failed job. The message names the file and what perf saw.
 */
public final class DamagedPerfDataException extends IOException implements BadInput {
  /** What perf prints about a damaged file (perf 6.x), in lower case. */
  private static final String[] SIGNS = {"incompatible file format", "failed to process type",
      "file is truncated", "can't parse", "invalid file", "unexpected end of file",
      "processing events failed", "failed to mmap", "mmap failed"};

  /** What perf said ("" when perf was not asked). */
  public final String perfSaid;

  public DamagedPerfDataException(String file, String perfSaid) {
    this(file + ": the perf.data file is damaged (perf: " + perfSaid + "); record it again,"
        + " or copy it again if it was copied", perfSaid, true);
  }

  private DamagedPerfDataException(String message, String perfSaid, boolean composed) {
    super(message);
    this.perfSaid = perfSaid;
  }

  /**
   * A file whose header the native reader found damaged ({@code what} names the byte offset),
   * and that perf could not read either ({@code perfSaid}, "" when perf was not asked).
   */
  public static DamagedPerfDataException header(String file, String what, String perfSaid) {
    return new DamagedPerfDataException(file + ": the perf.data file is damaged: " + what
        + (perfSaid.isEmpty() ? "" : "; perf script cannot read it either (" + perfSaid + ")")
        + ". Record it again, or copy it again if it was copied", perfSaid, true);
  }

  /**
   * A file perf runs on and fails without saying it is damaged ({@code perfSaid}: the command,
   * its exit code and its words): perf cannot read it, so it is bad input all the same.
   */
  static DamagedPerfDataException unreadable(String file, String perfSaid) {
    return new DamagedPerfDataException(file + ": perf cannot read the perf.data file (" + perfSaid
        + "); record it again, or copy it again if it was copied, or try --perf-data-reader"
        + " native", perfSaid, true);
  }

  /** True when perf's words (lines of its stderr) say the file is damaged. */
  static boolean saysDamaged(String perfSaid) {
    String lower = perfSaid.toLowerCase(java.util.Locale.ROOT);
    for (String sign : SIGNS) {
      if (lower.contains(sign)) {
        return true;
      }
    }
    return false;
  }
}
