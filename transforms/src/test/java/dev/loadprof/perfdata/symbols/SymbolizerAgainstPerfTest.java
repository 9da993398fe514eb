package dev.loadprof.perfdata.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.model.Frame;
import dev.loadprof.testtools.RequiredTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every callchain entry of small programs recorded here, symbolized by {@link Symbolizer} and by
 * {@code perf script -F ip,sym,dso}: the two must print the same symbol, object and address.
 * Needs root, perf and gcc (skipped otherwise).
 */
class SymbolizerAgainstPerfTest {
  static final String C_PROGRAM = """
      #define _GNU_SOURCE
      #include <sched.h>
      #include <stdlib.h>
      #include <unistd.h>
      volatile unsigned long sink;
      __attribute__((noinline)) static void local_spin(long n) { for (long i = 0; i < n; i++) sink += i * 3; }
      __attribute__((noinline)) void global_spin(long n) { for (long i = 0; i < n; i++) sink ^= i; local_spin(n / 4); }
      __attribute__((noinline)) void pin_loop(int n) {
        cpu_set_t set; CPU_ZERO(&set); CPU_SET(0, &set);
        for (int i = 0; i < n; i++) { sched_setaffinity(0, sizeof set, &set); getppid(); }
      }
      int main(int argc, char **argv) {
        if (argc > 2) unlink(argv[0]);
        long n = atol(argv[1]);
        for (int round = 0; round < (argc > 2 ? 40 : 1); round++) global_spin(n);
        pin_loop(n / 1000);
        return 0;
      }
      """;
  static final String CXX_PROGRAM = """
      #include <cstdlib>
      #include <string>
      #include <vector>
      namespace app { namespace detail {
      volatile unsigned long sink;
      template <typename T> struct Worker {
        __attribute__((noinline)) T run(T n, const std::string &tag) {
          T s = 0; for (T i = 0; i < n; i++) { s += i * tag.size(); sink = s; } return s; }
      };
      __attribute__((noinline)) long compute(std::vector<int> &v, long n) {
        Worker<long> w; return w.run(n, "xy") + v.size(); }
      }}
      int main(int argc, char **argv) { std::vector<int> v(3); app::detail::sink = app::detail::compute(v, atol(argv[1])); return 0; }
      """;
  static final String JIT_PROGRAM = """
      #include <stdio.h>
      #include <stdlib.h>
      #include <string.h>
      #include <sys/mman.h>
      #include <unistd.h>
      /* mov rax, rdi; dec rax; jnz -5; ret */
      static const unsigned char spin[] = {0x48, 0x89, 0xf8, 0x48, 0xff, 0xc8, 0x75, 0xfb, 0xc3};
      int main(int argc, char **argv) {
        unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        memcpy(code, spin, sizeof spin);
        memcpy(code + 64, spin, sizeof spin);
        char path[64]; snprintf(path, sizeof path, "/tmp/perf-%d.map", getpid());
        FILE *map = fopen(path, "w");
        fprintf(map, "%lx 9 jit_spin_loop\\n%lx 9 Lcom/example/Other;::run\\n",
                (unsigned long) code, (unsigned long) (code + 64));
        fclose(map);
        long (*fn)(long) = (long (*)(long)) code;
        return (int) (fn(atol(argv[1])) & 0);
      }
      """;

  static final String RUST_PROGRAM = """
      use std::hint::black_box;
      mod shapes {
          pub struct Circle<T> { pub r: T }
          impl<T: Copy + Into<f64>> Circle<T> {
              #[inline(never)]
              pub fn spin(&self, n: u64) -> f64 {
                  let mut s = 0.0;
                  for i in 0..n { s += (i as f64) * self.r.into(); std::hint::black_box(s); }
                  s
              }
          }
      }
      #[inline(never)]
      fn outer(n: u64) -> f64 { let c = shapes::Circle { r: 2.0f32 }; c.spin(n) }
      fn main() {
          let n: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
          black_box(outer(n));
      }
      """;

  @TempDir static Path dir;

  @BeforeAll
  static void tools() {
    PerfTruth.assumeToolsAndRoot();
  }

  @Test
  void cProgramWithLibcVersionsAndKernelFramesMatchesPerf() throws Exception {
    Path program = PerfTruth.compile(dir, "prog", "gcc", C_PROGRAM, List.of());
    Path data = PerfTruth.record(dir, "c", List.of(program.toString(), "40000000"));
    PerfTruth.Replay replay = replayLive(data);
    assertSame(replay);
    assertSeen(replay, f -> f.symbol().equals("global_spin") && f.dso().equals(program.toString()));
    assertSeen(replay, f -> f.symbol().equals("local_spin"));
    assertSeen(replay, f -> f.symbol().equals("sched_setaffinity@@GLIBC_2.3.4"));
    assertSeen(replay, f -> f.dso().equals("[kernel.kallsyms]") && !f.symbol().equals("[unknown]"));
  }

  @Test
  void cxxNamesAreDemangledWithoutParameters() throws Exception {
    Path program = PerfTruth.compile(dir, "progxx", "g++", CXX_PROGRAM, List.of());
    Path data = PerfTruth.record(dir, "cxx", List.of(program.toString(), "60000000"));
    PerfTruth.Replay replay = replayLive(data);
    assertSame(replay);
    assertSeen(replay, f -> f.symbol().equals("app::detail::Worker<long>::run"));
  }

  @Test
  void strippedBinaryAndLibcWithOnlyDynsym() throws Exception {
    Path program = PerfTruth.compile(dir, "progdyn", "gcc", C_PROGRAM, List.of("-rdynamic"));
    PerfTruth.run(dir, List.of("strip", program.toString()));
    Path data = PerfTruth.record(dir, "stripped", List.of(program.toString(), "40000000"));
    // a root with only the stripped program and libc, and an empty build-id cache: nothing but
    // the files' own .dynsym to go by
    Path root = dir.resolve("symfs");
    Path emptyCache = Files.createDirectories(dir.resolve("empty-cache"));
    copyUnder(root, program);
    copyUnder(root, libc());
    try (Symbolizer symbolizer = new Symbolizer(new SymbolSources(root, emptyCache,
        Path.of("/proc/kallsyms"), Path.of("/tmp")))) {
      PerfTruth.Replay replay = PerfTruth.replay(data,
          List.of("perf", "--buildid-dir", emptyCache.toString()),
          List.of("--symfs", root.toString()), symbolizer);
      PerfTruth.Replay user = new PerfTruth.Replay(replay.pairs().stream()
          .filter(p -> !p.perf().dso().equals("[kernel.kallsyms]")).toList(), 0);
      assertSame(user);
      assertSeen(user, f -> f.symbol().equals("global_spin")); // exported: in .dynsym
      assertSeen(user, f -> f.symbol().equals("[unknown]") && f.dso().equals(program.toString()));
      assertSeen(user, f -> f.symbol().equals("sched_setaffinity")); // .dynsym has no version
    }
  }

  @Test
  void deletedBinaryStaysUnknownWithItsName() throws Exception {
    Path program = PerfTruth.compile(dir, "progdel", "gcc", C_PROGRAM, List.of());
    // About 4 s of spinning on a quiet machine (destroyed below): it must outlive perf's 0.3 s,
    // or perf record -p ends early and exits 143.
    Process running = new ProcessBuilder(program.toString(), "300000000", "delete").start();
    try {
      for (int i = 0; i < 100 && Files.exists(program); i++) {
        Thread.sleep(10);
      }
      Path data = dir.resolve("deleted.data");
      PerfTruth.run(dir, List.of("perf", "record", "-q", "-g", "-e", "cpu-clock", "-p",
          Long.toString(running.pid()), "-o", data.toString(), "--", "sleep", "0.3"));
      PerfTruth.Replay replay = replayLive(data);
      assertSame(replay);
      assertSeen(replay, f -> f.dso().equals(program + " (deleted)"));
    } finally {
      running.destroy();
      running.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void jitFramesComeFromThePerfMap() throws Exception {
    Path program = PerfTruth.compile(dir, "progjit", "gcc", JIT_PROGRAM, List.of());
    Path data = PerfTruth.record(dir, "jit", List.of(program.toString(), "300000000"));
    try {
      PerfTruth.Replay replay = replayLive(data);
      assertSame(replay);
      assertSeen(replay, f -> f.symbol().equals("jit_spin_loop")
          && f.dso().matches("/tmp/perf-\\d+\\.map"));
    } finally {
      try (var maps = Files.newDirectoryStream(Path.of("/tmp"), "perf-*.map")) {
        for (Path map : maps) {
          if (Files.readString(map).contains("jit_spin_loop")) {
            Files.delete(map);
          }
        }
      }
    }
  }

  @Test
  void vdsoFramesComeFromTheCachedVdso() throws Exception {
    Path program = PerfTruth.compile(dir, "progvdso", "gcc", """
        #include <stdlib.h>
        #include <time.h>
        int main(int argc, char **argv) {
          struct timespec ts; unsigned long sum = 0;
          for (long i = 0; i < atol(argv[1]); i++) {
            clock_gettime(CLOCK_MONOTONIC, &ts); sum += ts.tv_nsec;
          }
          return sum == 42;
        }
        """, List.of());
    Path data = PerfTruth.record(dir, "vdso", List.of(program.toString(), "3000000"));
    PerfTruth.Replay replay = replayLive(data);
    assertSame(replay);
    assertSeen(replay, f -> f.dso().equals("[vdso]") && f.symbol().startsWith("__vdso_"));
  }

  @Test
  void buildIdCacheServesTheRecordedBinaryAfterARebuild() throws Exception {
    Path cache = Files.createDirectories(dir.resolve("cache"));
    List<String> perf = List.of("perf", "--buildid-dir", cache.toString());
    Path program = PerfTruth.compile(dir, "progre", "gcc", C_PROGRAM, List.of());
    Path data = dir.resolve("rebuilt.data");
    List<String> record = new java.util.ArrayList<>(perf);
    record.addAll(List.of("record", "-q", "-g", "-e", "cpu-clock", "-o", data.toString(), "--",
        program.toString(), "40000000"));
    PerfTruth.run(dir, record);
    // the same path now holds another build: different code, so other symbols at the addresses
    PerfTruth.compile(dir, "progre", "gcc",
        "int other_function(int x) { return x * 7; }\n"
            + C_PROGRAM.replace("local_spin", "renamed"),
        List.of("-O0"));
    try (Symbolizer symbolizer = new Symbolizer(
        new SymbolSources(Path.of("/"), cache, Path.of("/nonexistent/kallsyms"),
            Path.of("/tmp")))) {
      PerfTruth.Replay replay = PerfTruth.replay(data, perf, List.of(), symbolizer);
      assertSame(replay);
      assertSeen(replay, f -> f.symbol().equals("local_spin")); // only the cached copy has it
      // kernel names came from the cache's copy of kallsyms, since the configured one is absent
      assertSeen(replay,
          f -> f.dso().equals("[kernel.kallsyms]") && !f.symbol().equals("[unknown]"));
    }
  }

  @Test
  void rustNamesAreDemangledWithoutHashes() throws Exception {
    Path rustc = RequiredTools.require(RequiredTools.Tool.RUSTC);
    Path source = dir.resolve("rprog.rs");
    Files.writeString(source, RUST_PROGRAM);
    Path program = dir.resolve("rprog");
    PerfTruth.run(dir, List.of(rustc.toString(), "-O", "-C", "force-frame-pointers=yes", "-o",
        program.toString(), source.toString()));
    Path data = PerfTruth.record(dir, "rust", List.of(program.toString(), "60000000"));
    PerfTruth.Replay replay = replayLive(data);
    assertSame(replay);
    assertSeen(replay, f -> f.symbol().equals("rprog::shapes::Circle<T>::spin"));
  }

  private static PerfTruth.Replay replayLive(Path data) throws Exception {
    try (Symbolizer symbolizer = new Symbolizer(SymbolSources.live())) {
      return PerfTruth.replay(data, List.of("perf"), List.of(), symbolizer);
    }
  }

  private static void assertSame(PerfTruth.Replay replay) {
    assertTrue(replay.pairs().size() > 100, "too few frames to compare: " + replay.pairs().size());
    assertEquals(0, replay.unzippedSamples(), "samples whose frames could not be paired");
    List<PerfTruth.Pair> differences = replay.differences();
    assertEquals(List.of(), differences.stream().map(SymbolizerAgainstPerfTest::describe)
            .distinct().limit(20).toList(),
        differences.size() + " of " + replay.pairs().size() + " frames differ from perf's");
  }

  private static String describe(PerfTruth.Pair pair) {
    return "perf " + Long.toHexString(pair.perf().address()) + " " + pair.perf() + ", ours "
        + Long.toHexString(pair.ours().address()) + " " + pair.ours();
  }

  private static void assertSeen(PerfTruth.Replay replay, Predicate<Frame> frame) {
    assertTrue(replay.pairs().stream().map(PerfTruth.Pair::perf).anyMatch(frame),
        "perf printed no such frame, so this case proves nothing");
  }

  /** The C library this machine maps (the JVM's own, as the program's): no path is assumed. */
  private static Path libc() throws Exception {
    return Files.readAllLines(Path.of("/proc/self/maps")).stream()
        .map(l -> l.substring(l.indexOf('/') < 0 ? l.length() : l.indexOf('/')))
        .filter(f -> f.matches("/.*/libc\\.so\\.6")).map(Path::of).findFirst()
        .orElseThrow(() -> new AssertionError("this JVM maps no libc.so.6"));
  }

  private static void copyUnder(Path root, Path file) throws Exception {
    Path target = root.resolve(file.toString().substring(1));
    Files.createDirectories(target.getParent());
    Files.copy(file, target);
  }
}
