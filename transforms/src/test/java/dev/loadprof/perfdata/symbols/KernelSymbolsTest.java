package dev.loadprof.perfdata.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

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

  /** What parse keeps of each line a line reader gives: the reading before parseAll. */
  private static List<SymbolTable.Entry> lineByLine(String text) {
    return new BufferedReader(new StringReader(text)).lines().map(KernelSymbols::parse)
        .filter(Objects::nonNull).toList();
  }

  @Test
  void theBytesAreReadAsTheirLinesParsedOneByOne() {
    String text = String.join("\n",
        "ffffffff81000000 T _text", "ffffffff81000100 t do_work", "", "garbage",
        "ffffffff81000000 A absolute_sym", "ffffffff81000200 W weak_fn",
        "ffffffffc0000000 t mod_fn\t[e1000]", "ffffffffc0000010 t $x\t[arm_mod]",
        "ffffffffc0000020 t other\t  [e1000]  ", "ffffffffc0000030 t bare\tmodname",
        "ffffffffc0000040 t brackets\t[]", "ffffffffc0000050 t open\t[",
        "0000000000000000000000ff T leading_zeros", "+ff T plus_sign", "ff T  two_spaces",
        "ff T", "ff T ", "fff\tT x", "ffffffff81000300 u unique_global",
        "ffffffff81000400 l local_label", "ffffffff81000500 D caf\u00e9", "1 b\tbss_tab",
        "ffffffff81000600 T with\ttab\t[m]", "ffffffff81000700 T last_without_newline");
    assertEquals(lineByLine(text), KernelSymbols.parseAll(text.getBytes(StandardCharsets.UTF_8)));
    String crlf = text.replace("\n", "\r\n");
    assertEquals(lineByLine(crlf), KernelSymbols.parseAll(crlf.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void thisMachinesKallsymsReadAsLinesParsedOneByOne() throws Exception {
    Path kallsyms = Path.of("/proc/kallsyms");
    if (!Files.isReadable(kallsyms)) {
      return; // nothing to compare with here
    }
    byte[] bytes;
    try (var in = Files.newInputStream(kallsyms)) {
      bytes = in.readAllBytes();
    }
    List<SymbolTable.Entry> expected = lineByLine(new String(bytes, StandardCharsets.UTF_8));
    assertTrue(expected.size() > 100, "kallsyms has symbols");
    assertEquals(expected, KernelSymbols.parseAll(bytes));
  }
}
