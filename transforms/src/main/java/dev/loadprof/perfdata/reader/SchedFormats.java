package dev.loadprof.perfdata.reader;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * prev_state of sched_switch as perf script prints it, from the tracepoint's print format in the
 * file: the letters of __print_flags for the state bits below TASK_REPORT_MAX ("S", "D", "I",
 * joined by "|"), "R" when none is set, then "+" when the TASK_REPORT_MAX bit (preempted) is set.
 */
final class SchedFormats {
  private static final Pattern REPORT_MASK =
      Pattern.compile("\\(\\(\\(\\(([0-9a-fA-Fx |]+)\\) \\+ 1\\) << 1\\) - 1\\)");
  private static final Pattern FLAG = Pattern.compile("\\{\\s*(0x[0-9a-fA-F]+|\\d+)\\s*,\\s*\"([^\"]*)\"\\s*\\}");

  private final long reportMax;
  private final long[] flagValues;
  private final String[] flagNames;

  private SchedFormats(long reportMax, long[] flagValues, String[] flagNames) {
    this.reportMax = reportMax;
    this.flagValues = flagValues;
    this.flagNames = flagNames;
  }

  /** Reads the prev_state rule from sched_switch's print format. */
  static SchedFormats fromPrintFormat(String printFormat) throws UnsupportedPerfDataException {
    Matcher mask = REPORT_MASK.matcher(printFormat);
    int flags = printFormat.indexOf("__print_flags(");
    if (!mask.find() || flags < 0) {
      throw new UnsupportedPerfDataException(
          "its sched_switch print format is not one the native reader knows");
    }
    long inner = 0;
    for (String term : mask.group(1).split("\\|")) {
      inner |= number(term.strip());
    }
    List<Long> values = new ArrayList<>();
    List<String> names = new ArrayList<>();
    Matcher flag = FLAG.matcher(printFormat);
    flag.region(flags, printFormat.length());
    while (flag.find()) {
      values.add(number(flag.group(1)));
      names.add(flag.group(2));
    }
    return new SchedFormats((inner + 1) << 1, values.stream().mapToLong(Long::longValue).toArray(),
        names.toArray(String[]::new));
  }

  /** The text perf prints for a prev_state value. */
  String prevState(long state) {
    long bits = state & (reportMax - 1);
    StringBuilder text = new StringBuilder(4);
    if (bits == 0) {
      text.append('R');
    } else {
      // As libtraceevent's __print_flags: each flag whose bits are all set, in table order.
      for (int i = 0; i < flagValues.length && bits != 0; i++) {
        if (flagValues[i] != 0 && (bits & flagValues[i]) == flagValues[i]) {
          if (text.length() > 0) {
            text.append('|');
          }
          text.append(flagNames[i]);
          bits &= ~flagValues[i];
        }
      }
      if (bits != 0) {
        if (text.length() > 0) {
          text.append('|');
        }
        text.append("0x").append(Long.toHexString(bits));
      }
    }
    if ((state & reportMax) != 0) {
      text.append('+');
    }
    return text.toString();
  }

  private static long number(String s) {
    return s.startsWith("0x") ? Long.parseLong(s.substring(2), 16) : Long.parseLong(s);
  }
}
