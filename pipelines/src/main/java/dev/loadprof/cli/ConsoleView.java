package dev.loadprof.cli;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * Which functions the console's table shows, as perf report and pprof choose them: how many
 * (--top), from what share up (--percent-limit), in which order (--sort), and a text call graph
 * of the shown functions (--tree). The job writes every function to functions.txt and every
 * stack to flame.folded; the console's table and tree are chosen from those, after the job, so
 * that a different choice never needs another job.
 */
final class ConsoleView {
  static final int DEFAULT_TOP = 10;

  /** The columns of the console's table that --sort takes. */
  enum Column {
    REAL, CPU, AVGLOAD, FUNCTION;

    Comparator<FunctionLine> order() {
      return switch (this) {
        case REAL -> Comparator.comparingDouble(FunctionLine::realPct).reversed();
        case CPU -> Comparator.comparingDouble(FunctionLine::cpuPct).reversed();
        case AVGLOAD -> Comparator.comparingDouble(FunctionLine::avgLoad).reversed();
        case FUNCTION -> Comparator.comparing(FunctionLine::name);
      };
    }
  }

  @Option(names = "--top", paramLabel = "N", converter = Converters.Positive.class,
      description = "Functions shown in the console's table (default " + DEFAULT_TOP
          + "; functions.txt has them all).")
  Integer top;

  @Option(names = "--percent-limit", paramLabel = "P",
      description = "Leave out of the console's table the functions under P %% of the real"
          + " time (perf report's --percent-limit).")
  Double percentLimit;

  @Option(names = "--sort", paramLabel = "COL", converter = SortColumn.class,
      description = "Order of the console's table: real (default), cpu, avgload or function.")
  Column sort;

  @Option(names = "--tree", description = "Also print the call graph of the shown functions:"
      + " each one's callers and callees with their share of its real time (as pprof -tree).")
  boolean tree;

  /** Whether the console shows the job's own table, unchanged. */
  boolean isDefault() {
    return top == null && percentLimit == null && sort == null && !tree;
  }

  /** One row of the console's table. */
  record FunctionLine(String name, double realPct, double cpuPct, double avgLoad, String text) {}

  /** The rows shown: above the limit, in the order asked, the first N. */
  List<FunctionLine> choose(List<FunctionLine> all) {
    List<FunctionLine> rows = new ArrayList<>();
    for (FunctionLine f : all) {
      if (percentLimit == null || f.realPct() >= percentLimit) {
        rows.add(f);
      }
    }
    if (sort != null) {
      rows.sort(sort.order().thenComparing(FunctionLine::name));
    }
    int n = top == null ? DEFAULT_TOP : top;
    return rows.subList(0, Math.min(n, rows.size()));
  }

  /** --sort's column by its name in any case; anything else names the columns. */
  static final class SortColumn implements picocli.CommandLine.ITypeConverter<Column> {
    @Override
    public Column convert(String value) {
      try {
        return Column.valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException("a column of the"
            + " console's table: real, cpu, avgload or function; got '" + value + "'");
      }
    }
  }
}
