package dev.loadprof.perfdata.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kallsyms lines perf keeps, and the names perf prints for kernel maps. */
class KernelSymbolsTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "ffffffff81000000 T _text|_text|''",
      "ffffffff81000100 t do_work|do_work|''",
      "ffffffff81000200 W weak_fn|weak_fn|''",
      "ffffffff82000000 D some_data|some_data|''",
      "ffffffff82000000 b some_bss|some_bss|''",
      "ffffffffc0000000 t mod_fn\t[e1000]|mod_fn|e1000"})
  void keptLines(String line, String name, String module) {
    SymbolTable.Entry entry = KernelSymbols.parse(line);
    assertEquals(name, entry.name());
    assertEquals(module, entry.module());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "ffffffff81000000 A absolute_sym", "ffffffff81000000 r read_only", "garbage",
      "ffffffffc0000000 t $x\t[arm_mod]"})
  void ignoredLines(String line) {
    assertNull(KernelSymbols.parse(line));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "[kernel.kallsyms]_text|[kernel.kallsyms]",
      "/lib/modules/6.1.0/kernel/drivers/net/e1000/e1000.ko|[e1000]",
      "/lib/modules/6.1.0/kernel/net/nf-conntrack.ko.xz|[nf_conntrack]",
      "[bpf_prog]|[bpf_prog]"})
  void kernelMapNames(String filename, String dso) {
    assertEquals(dso, MapKinds.kernelDsoName(filename));
  }
}
