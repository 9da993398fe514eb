package dev.loadprof.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run id is the trace's file name; in one job, files of one name in different directories are
 * distinct runs, qualified by as few directories as tell them apart.
 */
class RunIdsTest {
  @Test
  void aFileIsNamedAfterItsNameWithoutSuffixes() {
    assertEquals("prog-20261127-224530", RunIds.of("/out/prog-20261127-224530.data"));
    assertEquals("mixed", RunIds.of("/t/mixed.txt.gz"));
    assertEquals("stdin", RunIds.of("-"));
  }

  @Test
  void distinctNamesStayAsTheyAre() {
    assertEquals(List.of("prog-20261127-224530", "prog-20261128-010203", "mixed"),
        List.copyOf(RunIds.of(List.of("/out/prog-20261127-224530.data",
            "/out/prog-20261128-010203.data", "/other/mixed.txt.gz")).values()));
  }

  @Test
  void oneNameInTwoDirectoriesIsQualifiedByTheLastDirectory() {
    Map<String, String> ids = RunIds.of(List.of("/w/base-1/prog.data", "/w/new-1/prog.data",
        "/w/base-2/prog.data", "/w/new-1/other.data"));
    assertEquals(List.of("base-1/prog", "new-1/prog", "base-2/prog", "other"),
        List.copyOf(ids.values()));
  }

  @Test
  void asManyDirectoriesAsTellThemApart() {
    Map<String, String> ids = RunIds.of(List.of("/a/c/prog.txt.gz", "/b/c/prog.txt.gz",
        "/x/d/prog.txt"));
    assertEquals(List.of("a/c/prog", "b/c/prog", "x/d/prog"), List.copyOf(ids.values()));
    Map<String, String> urls = RunIds.of(List.of("s3://bucket/a/prog.gz", "/local/a/prog.gz"));
    assertEquals(List.of("bucket/a/prog", "local/a/prog"), List.copyOf(urls.values()));
  }

  @Test
  void pathsNoDirectoryTellsApartAreTheirWholePaths() {
    Map<String, String> ids = RunIds.of(List.of("/a/prog.data", "/a/prog.data.gz"));
    assertEquals(List.of("/a/prog.data", "/a/prog.data.gz"), List.copyOf(ids.values()));
  }

  @Test
  void theOrderOfTheInputsChangesNoId() {
    List<String> paths = new ArrayList<>(List.of("/w/b/prog.data", "/w/a/prog.data",
        "/v/a/c/prog.data", "/w/solo.data"));
    Map<String, String> ids = RunIds.of(paths);
    Collections.reverse(paths);
    Map<String, String> reversed = RunIds.of(paths);
    for (String path : paths) {
      assertEquals(ids.get(path), reversed.get(path), path);
    }
    assertEquals("b/prog", ids.get("/w/b/prog.data"));
    assertEquals("c/prog", ids.get("/v/a/c/prog.data"));
  }
}
