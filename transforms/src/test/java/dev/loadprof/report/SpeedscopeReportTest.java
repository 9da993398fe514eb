package dev.loadprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.profile.LoadRange;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * flame.speedscope.json says its unit (nanoseconds) and holds exactly flame.folded's stacks and
 * figures: the same frame names, one sampled profile per process.
 */
class SpeedscopeReportTest {
  @Test
  void holdsFlameFoldedsStacksInNanoseconds() throws Exception {
    Analysis a = Fixtures.mixed(LoadRange.ALL);
    JsonNode file = new ObjectMapper().readTree(new SpeedscopeReport().render(a));
    assertEquals("https://www.speedscope.app/file-format-schema.json", file.get("$schema")
        .asText());
    JsonNode frames = file.get("shared").get("frames");
    List<String> fromSpeedscope = new ArrayList<>();
    for (JsonNode p : file.get("profiles")) {
      assertEquals("sampled", p.get("type").asText());
      assertEquals("nanoseconds", p.get("unit").asText());
      assertTrue(p.get("name").asText().endsWith(": real time on CPU"), p.toString());
      long sum = 0;
      for (int i = 0; i < p.get("samples").size(); i++) {
        List<String> names = new ArrayList<>();
        p.get("samples").get(i).forEach(f -> names.add(frames.get(f.asInt()).get("name")
            .asText()));
        long ns = p.get("weights").get(i).asLong();
        sum += ns;
        fromSpeedscope.add(String.join(";", names) + " " + ns);
      }
      assertEquals(sum, p.get("endValue").asLong());
    }
    // flame.folded's lines without their run and comm segments (the profiles' names).
    List<String> fromFolded = new ArrayList<>();
    for (String line : new FoldedReport().render(a).split("\n")) {
      fromFolded.add(line.split(";", 3)[2]);
    }
    assertEquals(fromFolded.stream().sorted().toList(), fromSpeedscope.stream().sorted().toList());
    assertTrue(fromSpeedscope.stream().anyMatch(l -> l.contains("spin_lock_[k]")), "kernel mark");
    assertEquals(4, file.get("profiles").size(), "db, swapper, web and cron");
  }
}
