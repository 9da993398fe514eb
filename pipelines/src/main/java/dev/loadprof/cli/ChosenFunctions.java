package dev.loadprof.cli;

import dev.loadprof.cli.ConsoleView.FunctionLine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The console summary with the functions a {@link ConsoleView} chooses: its table's rows taken
 * from functions.txt (every function of every process, with the same figures), and, with --tree,
 * the callers and callees of each shown function summed over flame.folded's stacks.
 */
final class ChosenFunctions {
  private static final String TABLE_TITLE = "Top functions by real time";
  /** A row of functions.txt: flat% cum% cpu% avgload saved% function. */
  private static final Pattern FUNCTIONS_ROW = Pattern.compile(
      "^\\s*([\\d.]+)%\\s+[\\d.]+%\\s+([\\d.]+)%\\s+(\\S+)\\s+[\\d.]+%\\s+(.*)$");
  private static final Pattern TABLE_ROW = Pattern.compile("^\\s+[\\d.]+%.*");
  /** The process's name in its header line: "run R pid P (NAME): ...". */
  private static final Pattern HEADER = Pattern.compile("^run \\S+ pid \\d+ \\((.*)\\): ");
  private static final int CALLERS_SHOWN = 5;

  private ChosenFunctions() {}

  /**
   * The summary with its table's rows chosen by {@code view}, and the call graph after the
   * table with --tree; the summary unchanged when it has no table (no process samples).
   */
  static String apply(ConsoleView view, String summary, String functionsTxt, String folded) {
    List<String> lines = new ArrayList<>(summary.lines().toList());
    int title = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith(TABLE_TITLE)) {
        title = i;
        break;
      }
    }
    String header = lines.stream().filter(l -> HEADER.matcher(l).find()).findFirst().orElse(null);
    if (title < 0 || header == null) {
      return summary;
    }
    int firstRow = title + 2; // after the column names
    int end = firstRow;
    while (end < lines.size() && TABLE_ROW.matcher(lines.get(end)).matches()) {
      end++;
    }
    List<FunctionLine> shown = view.choose(rowsOf(functionsTxt, header));
    List<String> replaced = new ArrayList<>();
    for (FunctionLine f : shown) {
      replaced.add(f.text());
    }
    if (view.sort != null && view.sort != ConsoleView.Column.REAL) {
      lines.set(title, lines.get(title).replaceFirst("\\):$",
          "; sorted by " + view.sort.name().toLowerCase(Locale.ROOT) + "):"));
    }
    if (view.percentLimit != null) {
      lines.set(title, lines.get(title).replaceFirst("\\):$",
          String.format(Locale.ROOT, "; from %.2f%% up):", view.percentLimit)));
    }
    if (view.tree) {
      Matcher m = HEADER.matcher(header);
      m.find();
      replaced.addAll(tree(shown, m.group(1), folded));
    }
    List<String> out = new ArrayList<>(lines.subList(0, firstRow));
    out.addAll(replaced);
    out.addAll(lines.subList(end, lines.size()));
    return String.join("\n", out) + "\n";
  }

  /** The rows of the process whose header line is {@code header}, in functions.txt's order. */
  static List<FunctionLine> rowsOf(String functionsTxt, String header) {
    List<FunctionLine> rows = new ArrayList<>();
    boolean inProcess = false;
    for (String line : functionsTxt.lines().toList()) {
      if (line.startsWith("run ")) {
        inProcess = line.equals(header);
        continue;
      }
      Matcher m = FUNCTIONS_ROW.matcher(line);
      if (inProcess && m.matches()) {
        double real = Double.parseDouble(m.group(1));
        double cpu = Double.parseDouble(m.group(2));
        String load = m.group(3);
        String name = m.group(4);
        rows.add(new FunctionLine(name, real, cpu, parseOrZero(load), String.format(
            Locale.ROOT, "  %6.2f%% %6.2f%% %8s  %s", real, cpu, load, name)));
      }
    }
    return rows;
  }

  private static double parseOrZero(String number) {
    try {
      return Double.parseDouble(number);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Each shown function's callers (the frame above it) and callees (the frame below it, or
   * "(self)" where it is the leaf), in % of the stacks' real time that pass through it; a
   * recursive function is counted once per stack, at its outermost frame.
   */
  static List<String> tree(List<FunctionLine> shown, String comm, String folded) {
    Map<String, Map<String, Long>> callers = new HashMap<>();
    Map<String, Map<String, Long>> callees = new HashMap<>();
    Map<String, Long> through = new HashMap<>();
    for (FunctionLine f : shown) {
      callers.put(f.name(), new HashMap<>());
      callees.put(f.name(), new HashMap<>());
    }
    for (String line : folded.lines().toList()) {
      int space = line.lastIndexOf(' ');
      if (space < 0) {
        continue;
      }
      String[] frames = line.substring(0, space).split(";");
      if (frames.length < 2 || !frames[0].equals(comm)) {
        continue;
      }
      long weight = Long.parseLong(line.substring(space + 1).trim());
      Map<String, Boolean> seen = new HashMap<>();
      for (int i = 1; i < frames.length; i++) {
        String name = symbol(frames[i]);
        if (!callers.containsKey(name) || seen.put(name, true) != null) {
          continue;
        }
        through.merge(name, weight, Long::sum);
        callers.get(name).merge(i > 1 ? symbol(frames[i - 1]) : "(thread root)", weight,
            Long::sum);
        callees.get(name).merge(i + 1 < frames.length ? symbol(frames[i + 1]) : "(self)",
            weight, Long::sum);
      }
    }
    List<String> out = new ArrayList<>();
    out.add("Call graph of these functions (callers <-, callees ->; % of the function's real"
        + " time):");
    for (FunctionLine f : shown) {
      long total = through.getOrDefault(f.name(), 0L);
      out.add("  " + f.name());
      if (total == 0) {
        continue;
      }
      for (var e : largest(callers.get(f.name()))) {
        out.add(String.format(Locale.ROOT, "    <- %6.2f%%  %s", 100.0 * e.getValue() / total,
            e.getKey()));
      }
      for (var e : largest(callees.get(f.name()))) {
        out.add(String.format(Locale.ROOT, "    -> %6.2f%%  %s", 100.0 * e.getValue() / total,
            e.getKey()));
      }
    }
    return out;
  }

  /** A kernel frame's name without flame.folded's "_[k]" mark, as functions.txt names it. */
  private static String symbol(String frame) {
    return frame.endsWith("_[k]") ? frame.substring(0, frame.length() - 4) : frame;
  }

  private static List<Map.Entry<String, Long>> largest(Map<String, Long> sums) {
    Map<String, Long> sorted = new LinkedHashMap<>();
    sums.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()))
        .limit(CALLERS_SHOWN)
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return new ArrayList<>(sorted.entrySet());
  }
}
