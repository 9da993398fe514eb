package dev.loadprof.perfdata.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.loadprof.testtools.RequiredTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Names as Debian's perf 6.1 prints them (seen in perf script on this machine's recordings). */
class DemanglerTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      // C++ without parameters, as perf shows it
      "_ZN3app6detail6WorkerIlE3runElRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
          + "|app::detail::Worker<long>::run",
      // no implementation details: std::ostream, not std::basic_ostream<char, ...>
      "_ZNSo5writeEPKcl|std::ostream::write",
      "_Znam|operator new[]",
      // Rust's legacy mangling loses its hash, as perf's Rust step removes it
      "_ZN5rprog6shapes15Circle$LT$T$GT$4spin17h5f556f8d53a113c2E|rprog::shapes::Circle<T>::spin",
      // not mangled: unchanged, c++filt not asked
      "main|main",
      "sched_setaffinity@@GLIBC_2.3.4|sched_setaffinity@@GLIBC_2.3.4"})
  void namesAsPerfPrintsThem(String mangled, String expected) {
    RequiredTools.require(RequiredTools.Tool.CXXFILT); // the Demangler runs c++filt of the PATH
    try (Demangler demangler = new Demangler()) {
      assertEquals(expected, demangler.demangle(mangled));
      demangler.demangleAll(List.of(mangled, "_Z3foov"));
      assertEquals(expected, demangler.demangle(mangled));
      assertEquals(0, demangler.unavailable());
    }
  }

  @Test
  void withoutCxxfiltNamesStayMangledAndAreCounted() {
    try (Demangler demangler = new Demangler(List.of("/nonexistent/c++filt"))) {
      assertEquals("_Z3foov", demangler.demangle("_Z3foov"));
      demangler.demangleAll(List.of("_Z3barv", "_Z3bazv"));
      assertEquals("_Z3barv", demangler.demangle("_Z3barv"));
      assertEquals(3, demangler.unavailable());
    }
  }
}
