package dev.loadprof.perfdata.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.Frame;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Process maps, forks, execs, JIT maps and kallsyms, with made-up inputs (no ELF needed). */
class SymbolizerMapsTest {
  private static final long JIT = 0x7f0000001000L;

  @TempDir Path dir;
  private Symbolizer symbolizer;

  @BeforeEach
  void setUp() throws Exception {
    Files.writeString(dir.resolve("kallsyms"), """
        ffffffff81000000 T _text
        ffffffff81000100 t do_work
        ffffffff81000200 T schedule
        ffffffff81000300 d some_data
        """);
    Files.writeString(dir.resolve("perf-42.map"), """
        7f0000001000 40 LFoo;::bar
        0x7f0000001040 0x10 Interpreter
        """);
    symbolizer = new Symbolizer(new SymbolSources(dir.resolve("root"), dir.resolve("debug"),
        dir.resolve("kallsyms"), dir));
  }

  @Test
  void aViewKeepsTheMapsOfItsTimeWhateverComesLater() {
    symbolizer.mmap(42, 0x400000, 0x2000, 0, "/bin/old", null);
    symbolizer.mmap(-1, 0xffffffff81000000L, 0x1000000, 0, "[kernel.kallsyms]_text", null);
    Symbolizer.View before = symbolizer.view(42);
    // an exec's new image over the old one, a fork, and a module after the kernel's map
    symbolizer.mmap(42, 0x401000, 0x1000, 0x5000, "/bin/new", null);
    symbolizer.mmap(-1, 0xffffffffc0000000L, 0x1000, 0, "/lib/modules/x/m.ko", null);
    symbolizer.fork(42, 43);
    Symbolizer.View after = symbolizer.view(42);
    Symbolizer.View child = symbolizer.view(43);
    symbolizer.mmap(42, 0x400000, 0x2000, 0, "/bin/third", null);
    // resolved late, and the later view first: each in its own maps
    assertEquals(new Frame("[unknown]", "/bin/new", 0x5010),
        symbolizer.frame(after, 0x401010, false));
    assertEquals(new Frame("[unknown]", "/bin/old", 0x1010),
        symbolizer.frame(before, 0x401010, false));
    assertEquals(new Frame("[unknown]", "/bin/new", 0x5010),
        symbolizer.frame(child, 0x401010, false));
    assertEquals(new Frame("[unknown]", "/bin/third", 0x1010),
        symbolizer.frame(42, 0x401010, false));
    assertEquals("[kernel.kallsyms]", symbolizer.frame(before, 0xffffffffc0000010L, true).dso());
    assertEquals("[m]", symbolizer.frame(after, 0xffffffffc0000010L, true).dso());
  }

  @Test
  void addressesOutsideEveryMapAreUnknownAndAbsolute() {
    symbolizer.mmap(42, 0x400000, 0x1000, 0, "[heap]", null);
    assertEquals(new Frame("[unknown]", "[unknown]", 0x500000),
        symbolizer.frame(42, 0x500000, false));
    assertEquals(new Frame("[unknown]", "[unknown]", 0x10), symbolizer.frame(7, 0x10, false));
  }

  @Test
  void heapAndStackArePrintedByName() {
    symbolizer.mmap(42, 0x400000, 0x1000, 0, "[heap]", null);
    assertEquals(new Frame("[unknown]", "[heap]", 0x400010), symbolizer.frame(42, 0x400010, false));
  }

  @Test
  void anonymousCodeIsNamedByThePerfMapAtAbsoluteAddresses() {
    symbolizer.mmap(42, JIT, 0x10000, 0, "//anon", null);
    String map = dir.resolve("perf-42.map").toString();
    assertEquals(new Frame("LFoo;::bar", map, JIT + 0x3f), symbolizer.frame(42, JIT + 0x3f, false));
    assertEquals(new Frame("Interpreter", map, JIT + 0x40),
        symbolizer.frame(42, JIT + 0x40, false));
    // past the last entry's size, and a process without a map file
    assertEquals(new Frame("[unknown]", map, JIT + 0x50), symbolizer.frame(42, JIT + 0x50, false));
    symbolizer.mmap(43, JIT, 0x10000, 0, "//anon", null);
    assertEquals(new Frame("[unknown]", dir.resolve("perf-43.map").toString(), JIT),
        symbolizer.frame(43, JIT, false));
  }

  @Test
  void aChildStartsWithItsParentsMapsAndExecKeepsThemUntilCovered() {
    symbolizer.mmap(42, JIT, 0x10000, 0, "//anon", null);
    symbolizer.fork(42, 42); // a thread: nothing changes
    symbolizer.fork(42, 50);
    assertEquals("[unknown]", symbolizer.frame(50, JIT, false).symbol()); // no perf-50.map
    assertTrue(symbolizer.frame(50, JIT, false).dso().endsWith("perf-50.map"));
    symbolizer.exec(50); // as in perf: the old image's maps stay until new maps cover them
    assertTrue(symbolizer.frame(50, JIT, false).dso().endsWith("perf-50.map"));
    symbolizer.mmap(50, JIT, 0x1000, 0, "[heap]", null);
    assertEquals("[heap]", symbolizer.frame(50, JIT, false).dso());
    assertEquals("LFoo;::bar", symbolizer.frame(42, JIT, false).symbol()); // the parent keeps its
  }

  @Test
  void aNewMapReplacesWhatItOverlapsAndForgetsCachedFrames() {
    symbolizer.mmap(42, JIT, 0x10000, 0, "//anon", null);
    assertEquals("LFoo;::bar", symbolizer.frame(42, JIT, false).symbol());
    symbolizer.mmap(42, JIT + 0x8000, 0x1000, 0, "[heap]", null);
    assertEquals("[heap]", symbolizer.frame(42, JIT + 0x8000, false).dso());
    assertEquals("LFoo;::bar", symbolizer.frame(42, JIT, false).symbol());
    assertTrue(symbolizer.frame(42, JIT + 0x9000, false).dso().endsWith("perf-42.map"));
    symbolizer.mmap(42, JIT, 0x100, 0, "[heap]", null);
    assertEquals("[heap]", symbolizer.frame(42, JIT, false).dso());
  }

  @Test
  void aMissingObjectKeepsItsNameAndARelativeAddress() {
    symbolizer.mmap(42, 0x555500001000L, 0x2000, 0x1000, "/gone/app (deleted)", null);
    assertEquals(new Frame("[unknown]", "/gone/app (deleted)", 0x1234),
        symbolizer.frame(42, 0x555500000234L + 0x1000, false));
  }

  @Test
  void kernelFramesComeFromKallsymsAtAbsoluteAddresses() {
    symbolizer.mmap(-1, 0xffffffff81000000L, 0x1000000, 0xffffffff81000000L,
        "[kernel.kallsyms]_text", null);
    assertEquals(new Frame("do_work", "[kernel.kallsyms]", 0xffffffff810001ffL),
        symbolizer.frame(1, 0xffffffff810001ffL, true));
    assertEquals(new Frame("schedule", "[kernel.kallsyms]", 0xffffffff81000200L),
        symbolizer.frame(1, 0xffffffff81000200L, true));
    // past the MMAP record's length (.init.text) is still the kernel's map, as perf has it
    assertEquals(new Frame("[unknown]", "[kernel.kallsyms]", 0xffffffffc0000000L),
        symbolizer.frame(1, 0xffffffffc0000000L, true));
    assertEquals(new Frame("[unknown]", "[unknown]", 0xffffffff80000000L),
        symbolizer.frame(1, 0xffffffff80000000L, true));
    assertNull(symbolizer.kernelSymbolProblem());
  }

  @Test
  void kallsymsWithoutAddressesSaysWhy() throws Exception {
    Files.writeString(dir.resolve("kallsyms"), """
        0000000000000000 T _text
        0000000000000000 T schedule
        """);
    Symbolizer restricted =
        new Symbolizer(new SymbolSources(dir, dir, dir.resolve("kallsyms"), dir));
    assertEquals(new Frame("[unknown]", "[kernel.kallsyms]", 0xffffffff81000200L),
        restricted.frame(1, 0xffffffff81000200L, true));
    assertTrue(restricted.kernelSymbolProblem().contains("kptr_restrict"),
        restricted.kernelSymbolProblem());
  }
}
