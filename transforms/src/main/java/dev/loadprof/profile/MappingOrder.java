package dev.loadprof.profile;

import dev.loadprof.model.Frame;
import dev.loadprof.model.RunInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The order of a profile's mappings, one per object file: the main binary first, because pprof
 * names the first mapping in every report ("File: phases") and treats it as the main binary;
 * then the others by name, the nameless one last. The main binary is the executable in the stacks
 * of the most CPU time: of the files pprof itself would take for one (not a shared library, not a
 * "[kernel.kallsyms]"-like pseudo file), and not a JIT symbol map or anonymous memory. Stacks of
 * the run's subject (the program perf started) decide when there are any: in a system-wide
 * recording a busier neighbour, or the analysis's own JVM waiting off CPU, must not name the
 * profile.
 */
public final class MappingOrder {
  private static final Pattern LIBRARY = Pattern.compile("[.]so$|[.]so[._][0-9]+");
  private static final Pattern JIT_MAP = Pattern.compile("(^|/)perf-[0-9]+[.]map$");

  private MappingOrder() {}

  /** Whether a stack is of its run's subject, by the runs' subjects. */
  public static Predicate<StackWeight> subjectOf(List<RunInfo> runs) {
    Map<String, RunInfo> byId = new HashMap<>();
    runs.forEach(r -> byId.put(r.runId, r));
    return s -> {
      RunInfo r = byId.get(s.runId());
      return r != null && r.isSubject(s.pid());
    };
  }

  /**
   * The order of the stacks' files, the main binary first: of the subject's stacks when there
   * are any, else of all; weighted by {@link StackWeight#cpuNs}.
   */
  public static List<String> of(List<StackWeight> stacks, Predicate<StackWeight> subject) {
    List<StackWeight> ofSubject = new ArrayList<>();
    for (StackWeight s : stacks) {
      if (subject.test(s)) {
        ofSubject.add(s);
      }
    }
    String main = main(ofSubject.isEmpty() ? stacks : ofSubject);
    TreeSet<String> files = new TreeSet<>();
    for (StackWeight s : stacks) {
      String last = null;
      for (Frame f : s.stack()) {
        if (f.dso() != last) { // frames of one object mostly follow each other
          files.add(f.dso());
          last = f.dso();
        }
      }
    }
    return order(files, main);
  }

  static List<String> of(List<StackWeight> stacks) {
    return of(stacks, s -> false);
  }

  /** The file that the most CPU time of the stacks ran in, of those that could be the main. */
  private static String main(List<StackWeight> stacks) {
    Map<String, Long> cpuNsByFile = new HashMap<>();
    Map<String, Boolean> candidates = new HashMap<>(); // every file seen: could it be the main?
    for (StackWeight s : stacks) {
      Set<String> inStack = new HashSet<>();
      String last = null;
      for (Frame f : s.stack()) {
        if (f.dso() == last) {
          continue; // a caller in the same object (a recursion): counted with its callee
        }
        last = f.dso();
        if (inStack.add(f.dso())
            && candidates.computeIfAbsent(f.dso(), MappingOrder::couldBeMainBinary)) {
          cpuNsByFile.merge(f.dso(), s.cpuNs(), Long::sum);
        }
      }
    }
    String main = null;
    for (String file : new TreeSet<>(candidates.keySet())) { // by name: the first of equals wins
      Long cpu = cpuNsByFile.get(file);
      if (cpu != null && (main == null || cpu > cpuNsByFile.get(main))) {
        main = file;
      }
    }
    return main;
  }

  private static List<String> order(TreeSet<String> files, String main) {
    List<String> order = new ArrayList<>();
    if (main != null) {
      order.add(main);
    }
    for (String file : files) {
      if (!file.equals(main) && !file.isEmpty()) {
        order.add(file);
      }
    }
    if (files.contains("") && !"".equals(main)) {
      order.add("");
    }
    return order;
  }

  static boolean couldBeMainBinary(String file) {
    String f = file.replace("(deleted)", "").trim();
    return f.startsWith("/") && !f.startsWith("//anon") && !f.startsWith("/memfd:")
        && !LIBRARY.matcher(f).find() && !JIT_MAP.matcher(f).find();
  }
}
