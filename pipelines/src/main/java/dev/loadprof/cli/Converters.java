package dev.loadprof.cli;

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

  /** A process id: a positive whole number. */
  static final class Pid implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String text) {
      try {
        int pid = Integer.parseInt(text.trim());
        if (pid >= 0) {
          return pid;
        }
      } catch (NumberFormatException e) {
        // fall through to the message
      }
      throw new TypeConversionException("'" + text + "' is not a process id; give whole"
          + " numbers, e.g. -p 1599 or -p 1599,1600");
    }
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

  /** A group-by spec: none, host, comm, run or run:REGEX. */
  static final class GroupBySpec extends CheckedText {
    @Override
    void check(String text) {
      GroupBy.parse(text);
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
