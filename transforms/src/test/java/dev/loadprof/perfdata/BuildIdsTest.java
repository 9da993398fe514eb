package dev.loadprof.perfdata;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** perf buildid-list's lines as perf 6.1 prints them, and lines that are not build ids. */
class BuildIdsTest {
  @Test
  void buildIdsByObjectPath() {
    String text = String.join("\n",
        "4a5a9b0affb66c437abcd455d2738af879985fa9 [kernel.kallsyms]",
        "93ac61ec5a8eb1396f9fbd350e3169a558528a40 /usr/lib/x86_64-linux-gnu/libc.so.6",
        "e95baaeaec8534edc5df3654182ddf12b19d9b23 [vdso]",
        "7ebc65e52f2bbea498b4040fa92f7238377aaba9 /tmp/dir with blanks/mixed",
        "  warning: something perf says",
        "not-hex /usr/bin/x",
        "");
    assertEquals(Map.of(
        "[kernel.kallsyms]", "4a5a9b0affb66c437abcd455d2738af879985fa9",
        "/usr/lib/x86_64-linux-gnu/libc.so.6", "93ac61ec5a8eb1396f9fbd350e3169a558528a40",
        "[vdso]", "e95baaeaec8534edc5df3654182ddf12b19d9b23",
        "/tmp/dir with blanks/mixed", "7ebc65e52f2bbea498b4040fa92f7238377aaba9"),
        BuildIds.parse(text));
  }
}
