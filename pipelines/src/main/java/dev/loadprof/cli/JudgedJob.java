package dev.loadprof.cli;

import java.util.ArrayList;
import java.util.List;

/** What compare and nightly check alike before their job starts. */
final class JudgedJob {
  private JudgedJob() {}

  /**
   * --load keeps only some samples in the profiles, but the comparisons are of whole real
   * times: their figures would disagree with the profiles beside them.
   */
  static void refuseLoad(FilterOptions filters, String command) throws UsageException {
    if (filters.load != null) {
      throw new UsageException("--load does not apply to " + command + ", which compares whole"
          + " real times; analyze the runs with --load instead");
    }
  }

  static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
