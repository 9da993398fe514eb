package dev.loadprof.critical;

import java.io.Serializable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A what-if asked for on the command line ({@code --what-if 'REGEX=50%'}): every function whose
 * name the regular expression finds, made that share faster (its on-CPU time that much shorter).
 */
public record WhatIfRequest(String regex, int fasterPercent) implements Serializable {
  private static final Pattern FORM = Pattern.compile("(.+)=(\\d{1,3})%?");

  public WhatIfRequest {
    if (fasterPercent < 1 || fasterPercent > 100) {
      throw new IllegalArgumentException("--what-if '" + regex + "=" + fasterPercent
          + "%': the share must be 1 to 100 %");
    }
    try {
      Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("--what-if '" + regex + "': not a regular expression ("
          + e.getDescription() + ")");
    }
  }

  /** Parses {@code REGEX=50%} (the % may be left out); a clear message when it is not that. */
  public static WhatIfRequest parse(String text) {
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("--what-if '" + text + "': expected REGEX=PERCENT%,"
          + " e.g. --what-if 'compress=50%'");
    }
    return new WhatIfRequest(m.group(1), Integer.parseInt(m.group(2)));
  }

  /** The function names this request speeds up. */
  public java.util.function.Predicate<String> matcher() {
    return Pattern.compile(regex).asPredicate();
  }
}
