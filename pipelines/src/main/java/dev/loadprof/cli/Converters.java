package dev.loadprof.cli;

import dev.loadprof.compare.Thresholds;
import dev.loadprof.critical.WhatIfRequest;
import dev.loadprof.load.SampleSelection;
import dev.loadprof.load.TimeRanges;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.report.GroupBy;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Checks and converts option values. Each says in loadprof's words what is wrong and what to
 * give instead; picocli adds the option's name. Every value is checked here, before any job
 * starts, so nothing of Beam's or Java's own error text reaches the user.
 */
final class Converters {
  private Converters() {}

  /** A process id: a whole number, 0 or more. */
  static final class Pid implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String text) {
      return wholeNumber(text, 0, "'" + text + "' is not a process id; give whole numbers, e.g."
          + " -p 1599 or -p 1599,1600");
    }
  }

  /** A thread id: a whole number, 0 or more. */
  static final class Tid implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String text) {
      return wholeNumber(text, 0, "'" + text + "' is not a thread id; give whole numbers, e.g."
          + " --tid 1601 or --tid 1601,1602");
    }
  }

  /** A list of CPUs as perf's -C takes it: 0,2-3. */
  static final class CpuList extends CheckedText {
    @Override
    void check(String text) {
      SampleSelection.parseCpus(text);
    }
  }

  /** perf's --time: START,END in seconds (open ends allowed) or percentages (10%/2, 0%-10%). */
  static final class Time extends CheckedText {
    @Override
    void check(String text) {
      TimeRanges.parse(text);
    }
  }

  /** A whole number of at least 1. */
  static final class Positive implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String text) {
      return wholeNumber(text, 1, "'" + text + "' is not a whole number of at least 1");
    }
  }

  private static int wholeNumber(String text, int min, String otherwise) {
    try {
      int n = Integer.parseInt(text.trim());
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through to the message
    }
    throw new TypeConversionException(otherwise);
  }

  /** A duration, "1s", "250ms", "1.5s" or milliseconds, as milliseconds in [1, 500000]. */
  static final class DurationMs implements ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
      double ms;
      try {
        if (text.endsWith("ms")) {
          ms = Double.parseDouble(text.substring(0, text.length() - 2));
        } else if (text.endsWith("s")) {
          ms = Double.parseDouble(text.substring(0, text.length() - 1)) * 1000;
        } else {
          ms = Double.parseDouble(text);
        }
      } catch (NumberFormatException e) {
        throw new TypeConversionException("'" + text + "' is not a duration; give one such as"
            + " 1s or 250ms");
      }
      if (!(ms >= 1 && ms <= 500_000)) {
        throw new TypeConversionException("'" + text + "' is out of range; give a duration"
            + " between 1ms and 500s");
      }
      return Math.round(ms);
    }
  }

  /** Text that a loadprof parser accepts, kept as text; the parser's message says why not. */
  private abstract static class CheckedText implements ITypeConverter<String> {
    abstract void check(String text);

    @Override
    public String convert(String text) {
      try {
        check(text);
        return text;
      } catch (PatternSyntaxException e) {
        throw new TypeConversionException("'" + text + "' is not a valid regular expression ("
            + e.getDescription() + "); quote it for the shell, e.g. '^phases$'");
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A load range: A:B, A, A: or :B. */
  static final class Load extends CheckedText {
    @Override
    void check(String text) {
      LoadRange.parse(text);
    }
  }

  /** A regular expression. */
  static final class Regex extends CheckedText {
    @Override
    void check(String text) {
      Pattern.compile(text);
    }
  }

  /** A what-if: REGEX=P% (the functions it names, P % faster). */
  static final class WhatIf implements ITypeConverter<WhatIfRequest> {
    @Override
    public WhatIfRequest convert(String text) {
      try {
        return WhatIfRequest.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A group-by spec: none, host, comm, run or run:REGEX. */
  static final class GroupBySpec extends CheckedText {
    @Override
    void check(String text) {
      GroupBy.parse(text);
    }
  }

  /** Thresholds: a relative change, an absolute real-time change or both, e.g. 5%,10ms. */
  static final class Threshold implements ITypeConverter<Thresholds> {
    @Override
    public Thresholds convert(String text) {
      try {
        return Thresholds.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** A significance level in (0, 1), e.g. 0.05. */
  static final class Alpha implements ITypeConverter<Double> {
    @Override
    public Double convert(String text) {
      try {
        double a = Double.parseDouble(text);
        if (a > 0 && a < 1) {
          return a;
        }
      } catch (NumberFormatException e) {
        // fall through to the message
      }
      throw new TypeConversionException("'" + text + "' is not a significance level; give a"
          + " number between 0 and 1, e.g. 0.05");
    }
  }

  /** A non-empty value (a file, directory or event name). */
  static final class NonEmpty implements ITypeConverter<String> {
    @Override
    public String convert(String text) {
      if (text.isBlank()) {
        throw new TypeConversionException("the value is empty");
      }
      return text;
    }
  }
}
