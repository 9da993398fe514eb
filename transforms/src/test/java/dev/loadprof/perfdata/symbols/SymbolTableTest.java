package dev.loadprof.perfdata.symbols;

import static dev.loadprof.perfdata.symbols.SymbolTable.GLOBAL;
import static dev.loadprof.perfdata.symbols.SymbolTable.LOCAL;
import static dev.loadprof.perfdata.symbols.SymbolTable.WEAK;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** perf 6.1's choice among symbols at one address, and the ends of symbols without a size. */
class SymbolTableTest {
  static Stream<Arguments> aliases() {
    return Stream.of(
        // the winner, then the other alias at the same address (both orders are tried)
        Arguments.of(entry("local_not_weak", 8, LOCAL), entry("weak_one", 8, WEAK)),
        Arguments.of(entry("global_one", 8, GLOBAL), entry("local_one", 8, LOCAL)),
        Arguments.of(entry("_one_underscore", 8, LOCAL), entry("__two_underscores", 8, LOCAL)),
        // libc's getppid: __GI___getppid over __GI_getppid, __getppid (shorter) and getppid (weak)
        Arguments.of(entry("__GI___getppid", 8, LOCAL), entry("__GI_getppid", 8, LOCAL)),
        Arguments.of(entry("__GI___getppid", 8, LOCAL), entry("getppid", 8, WEAK)),
        Arguments.of(entry("sys_read", 8, GLOBAL), entry("SyS_read", 8, GLOBAL)));
  }

  @ParameterizedTest
  @MethodSource("aliases")
  void perfKeepsOneAliasPerAddress(SymbolTable.Entry winner, SymbolTable.Entry other) {
    assertEquals(winner.name(), nameAt(SymbolTable.of(List.of(winner, other), false), 0x1000));
    assertEquals(winner.name(), nameAt(SymbolTable.of(List.of(other, winner), false), 0x1000));
  }

  @org.junit.jupiter.api.Test
  void aSizeOfZeroLosesOnlyWhenItComesFirst() {
    // perf fixes ends before it drops aliases: an unsized alias listed first ends where its
    // twin starts (size 0, so it loses); listed after it, it reaches the next symbol and then
    // competes on binding. Order-dependent in perf, so here too.
    SymbolTable.Entry sized = entry("sized_local", 8, LOCAL);
    SymbolTable.Entry unsized = entry("unsized_global", 0, GLOBAL);
    SymbolTable.Entry next = new SymbolTable.Entry(0x2000, 8, GLOBAL, "next", "");
    assertEquals("sized_local",
        nameAt(SymbolTable.of(List.of(unsized, sized, next), false), 0x1000));
    assertEquals("unsized_global",
        nameAt(SymbolTable.of(List.of(sized, unsized, next), false), 0x1000));
  }

  @ParameterizedTest
  @MethodSource("equalAliases")
  void aTrueTieKeepsTheFirstSeen(SymbolTable.Entry first, SymbolTable.Entry second) {
    assertEquals(first.name(), nameAt(SymbolTable.of(List.of(first, second), false), 0x1000));
  }

  static Stream<Arguments> equalAliases() {
    return Stream.of(Arguments.of(entry("__libc_start_main@@GLIBC_2.34", 321, GLOBAL),
        entry("__libc_start_main@GLIBC_2.2.5", 321, GLOBAL)));
  }

  @ParameterizedTest
  @MethodSource("lookups")
  void symbolsEndWherePerfEndsThem(long address, String expected) {
    SymbolTable table = SymbolTable.of(List.of(
        new SymbolTable.Entry(0x1000, 0x10, GLOBAL, "sized", ""),
        new SymbolTable.Entry(0x1100, 0, GLOBAL, "unsized", ""),
        new SymbolTable.Entry(0x1200, 0x20, GLOBAL, "next", ""),
        new SymbolTable.Entry(0x5010, 0, GLOBAL, "last_unsized", "")), false);
    assertEquals(expected, nameAt(table, address));
  }

  static Stream<Arguments> lookups() {
    return Stream.of(
        Arguments.of(0xfffL, "[unknown]"),
        Arguments.of(0x1000L, "sized"),
        Arguments.of(0x100fL, "sized"),
        Arguments.of(0x1010L, "[unknown]"), // a gap after a sized symbol stays unknown
        Arguments.of(0x1100L, "unsized"),
        Arguments.of(0x11ffL, "unsized"), // a size of 0 reaches to the next symbol
        Arguments.of(0x1200L, "next"),
        Arguments.of(0x1220L, "[unknown]"),
        Arguments.of(0x6fffL, "last_unsized"), // the last one: to the page after its own
        Arguments.of(0x7000L, "[unknown]"));
  }

  @ParameterizedTest
  @MethodSource("kallsymsLookups")
  void theLastKernelSymbolBeforeTheModulesEndsAtAPage(long address, String expected) {
    SymbolTable table = SymbolTable.of(List.of(
        new SymbolTable.Entry(0xffffffff81000000L, 0, GLOBAL, "_text", ""),
        new SymbolTable.Entry(0xffffffff82000010L, 0, GLOBAL, "_etext_last", ""),
        new SymbolTable.Entry(0xffffffffc0000000L, 0, GLOBAL, "mod_init", "mymod")), true);
    assertEquals(expected, nameAt(table, address));
  }

  static Stream<Arguments> kallsymsLookups() {
    return Stream.of(
        Arguments.of(0xffffffff81ffffffL, "_text"),
        Arguments.of(0xffffffff82001fffL, "_etext_last"),
        Arguments.of(0xffffffff82002000L, "[unknown]"),
        Arguments.of(0xffffffffc0000010L, "mod_init"));
  }

  private static SymbolTable.Entry entry(String name, long size, int binding) {
    return new SymbolTable.Entry(0x1000, size, binding, name, "");
  }

  private static String nameAt(SymbolTable table, long address) {
    int index = table.find(address);
    return index < 0 ? "[unknown]" : table.name(index);
  }
}
