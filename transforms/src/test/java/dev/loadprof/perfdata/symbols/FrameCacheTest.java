package dev.loadprof.perfdata.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.loadprof.model.Frame;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A thread's frame cache gives what the symbolizer gives, never another process's frame. */
class FrameCacheTest {
  private static final long JIT = 0x7f0000001000L;

  @TempDir Path dir;
  private Symbolizer symbolizer;
  private FrameCache cache;

  @BeforeEach
  void setUp() throws Exception {
    Files.writeString(dir.resolve("kallsyms"), """
        ffffffff81000000 T _text
        ffffffff81000100 t do_work
        """);
    Files.writeString(dir.resolve("perf-42.map"), "7f0000001000 40 LFoo;::bar\n");
    Files.writeString(dir.resolve("perf-43.map"), "7f0000001000 40 LBaz;::qux\n");
    symbolizer = new Symbolizer(new SymbolSources(dir.resolve("root"), dir.resolve("debug"),
        dir.resolve("kallsyms"), dir));
    cache = new FrameCache(symbolizer);
  }

  @Test
  void theSameAddressInTwoProcessesGivesEachItsOwnFrame() {
    symbolizer.mmap(42, 0x400000, 0x2000, 0, "/bin/a", null);
    symbolizer.mmap(43, 0x400000, 0x2000, 0x1000, "/bin/b", null);
    symbolizer.mmap(42, JIT, 0x10000, 0, "//anon", null);
    symbolizer.fork(42, 43); // 43 gets a copy of 42's maps: the JIT map too
    symbolizer.mmap(43, 0x400000, 0x2000, 0x1000, "/bin/b", null);
    Symbolizer.View a = symbolizer.view(42);
    Symbolizer.View b = symbolizer.view(43);
    for (int round = 0; round < 3; round++) { // hits after the first round
      assertEquals(new Frame("[unknown]", "/bin/a", 0x10), cache.frame(a, 0x400010, false));
      assertEquals(new Frame("[unknown]", "/bin/b", 0x1010), cache.frame(b, 0x400010, false));
      // the same JIT address is named by each process's own perf map
      assertEquals("LFoo;::bar", cache.frame(a, JIT + 8, false).symbol());
      assertEquals("LBaz;::qux", cache.frame(b, JIT + 8, false).symbol());
      // a kernel frame at the same address is the kernel's, whatever the process
      assertEquals(new Frame("do_work", "[kernel.kallsyms]", 0xffffffff81000110L),
          cache.frame(a, 0xffffffff81000110L, true));
      assertEquals(new Frame("[unknown]", "[unknown]", 0x7), cache.frame(a, 7, false));
    }
  }

  @Test
  void aLaterViewOfTheSameProcessResolvesInItsOwnMaps() {
    symbolizer.mmap(42, 0x400000, 0x2000, 0, "/bin/old", null);
    Symbolizer.View before = symbolizer.view(42);
    assertEquals("/bin/old", cache.frame(before, 0x401010, false).dso());
    symbolizer.mmap(42, 0x401000, 0x1000, 0x5000, "/bin/new", null);
    Symbolizer.View after = symbolizer.view(42);
    assertEquals(new Frame("[unknown]", "/bin/new", 0x5010), cache.frame(after, 0x401010, false));
    assertEquals(new Frame("[unknown]", "/bin/old", 0x1010), cache.frame(before, 0x401010, false));
    // the kernel's maps after a module was added are new maps too
    symbolizer.mmap(-1, 0xffffffffc0000000L, 0x1000, 0, "/lib/modules/x/m.ko", null);
    Symbolizer.View module = symbolizer.view(42);
    assertEquals("[kernel.kallsyms]", cache.frame(before, 0xffffffffc0000010L, true).dso());
    assertEquals("[m]", cache.frame(module, 0xffffffffc0000010L, true).dso());
  }

  @Test
  void givesTheSymbolizersOwnFrameObjects() {
    symbolizer.mmap(42, 0x400000, 0x2000, 0, "/bin/a", null);
    Symbolizer.View a = symbolizer.view(42);
    Frame first = cache.frame(a, 0x400010, false);
    assertSame(symbolizer.frame(a, 0x400010, false), first);
    assertSame(first, cache.frame(a, 0x400010, false));
    // many addresses, so that slots are shared and evicted: each still resolves as it should
    for (long i = 0; i < 20_000; i++) {
      long address = 0x400000 + (i * 0x1235L) % 0x2000;
      Frame frame = cache.frame(a, address, false);
      assertEquals(address - 0x400000, frame.address());
      assertSame(symbolizer.frame(a, address, false), frame);
    }
  }
}
