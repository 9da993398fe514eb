package dev.loadprof.report;

import static dev.loadprof.report.Fixtures.process;
import static dev.loadprof.report.Fixtures.run;
import static dev.loadprof.report.Fixtures.stack;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loadprof.model.RunInfo;
import dev.loadprof.profile.LoadRange;
import dev.loadprof.profile.ProcessLoad;
import dev.loadprof.profile.StackWeight;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A system-wide recording of {@code perf record -a -- ./prog}: another user's java has more
 * samples than prog, yet prog, the program perf started, leads every output and is named as
 * the subject; a recording that does not say which program perf started keeps the busiest
 * first and says so; --comm or --pid choose without a word.
 */
class SubjectFirstTest {
  static final int PROG = 1234;
  static final int CHILD = 1240;
  static final int JAVA = 900;

  /** prog (300 samples) and its child worker (100), java (5000) and cron (10). */
  static Analysis recording(boolean saysSubject) {
    List<StackWeight> stacks = new ArrayList<>();
    stacks.add(stack("r", PROG, 1, 300, "hot_loop", "main"));
    stacks.add(stack("r", CHILD, 1, 100, "compress", "main"));
    stacks.add(stack("r", JAVA, 4, 5000, "gc", "start_thread"));
    stacks.add(stack("r", 77, 1, 10, "run_jobs", "main"));
    RunInfo run = run("r", 0, 2_000_000_000L);
    run.processNames.put(PROG, "prog");
    run.processNames.put(CHILD, "worker");
    run.processNames.put(JAVA, "java");
    run.processNames.put(77, "cron");
    if (saysSubject) {
      run.subjectPid = PROG;
      run.subjectPids.add(PROG);
      run.subjectPids.add(CHILD);
    }
    List<ProcessLoad> processes = List.of(process("r", PROG, "prog", stacks, 0, 300),
        process("r", CHILD, "worker", stacks, 0, 100),
        process("r", JAVA, "java", stacks, 0, 0, 0, 0, 1250),
        process("r", 77, "cron", stacks, 0, 10));
    return new Analysis(List.of(run), processes, stacks, LoadRange.ALL);
  }

  static JsonNode summaryJson(Analysis a) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SummaryJson().write(a, out);
    return new ObjectMapper().readTree(out.toByteArray());
  }

  @Test
  void theProgramPerfStartedLeadsEveryOutput() throws IOException {
    Analysis a = recording(true);
    assertEquals(List.of("prog", "worker", "java", "cron"),
        a.processes().stream().map(p -> p.comm).toList());
    assertEquals(PROG, a.headline().pid);
    String console = new ConsoleSummary().render(a);
    assertThat(console, startsWith("subject: prog (pid 1234, the program perf started; 3 other"
        + " processes in the recording (1 of them started by it): see summary.json)\n"
        + "run r pid 1234 (prog): 300 samples"));
    JsonNode json = summaryJson(a);
    assertEquals("prog", json.get("headline").get("comm").asText());
    assertTrue(json.get("headline").get("subject").asBoolean());
    JsonNode run = json.get("runs").get(0);
    assertEquals(PROG, run.get("subject").get("pid").asInt());
    assertEquals("prog", run.get("subject").get("comm").asText());
    List<String> subjects = new ArrayList<>();
    run.get("processes").forEach(p -> subjects.add(p.get("comm").asText() + "="
        + p.get("subject").asBoolean()));
    assertEquals(List.of("prog=true", "worker=true", "java=false", "cron=false"), subjects);
    JsonNode page = new AnalyzeReport().model(a);
    assertEquals(0, page.get("headline").asInt());
    assertEquals("prog", page.get("processes").get(0).get("comm").asText());
    assertTrue(page.get("processes").get(0).get("subject").asBoolean());
    assertThat(page.get("subject_note").asText(), startsWith("subject: prog (pid 1234"));
    assertThat(new AnalyzeReport().render(a), containsString("<title>loadprof: prog (run r)"));
  }

  @Test
  void withoutASubjectTheBusiestLeadsAndTheConsoleSaysWhy() throws IOException {
    Analysis a = recording(false);
    assertEquals("java", a.headline().comm);
    String console = new ConsoleSummary().render(a);
    assertThat(console, startsWith("no subject: the trace does not say which program perf"
        + " started (perf record -a without a command, or perf script without"
        + " --show-task-events); showing the busiest process, java (pid 900); choose another"
        + " with --comm or -p (3 other processes in the recording: see summary.json)\n"
        + "run r pid 900 (java)"));
    JsonNode json = summaryJson(a);
    assertTrue(json.get("runs").get(0).get("subject").isNull());
    assertFalse(json.get("headline").get("subject").asBoolean());
  }

  @Test
  void aSubjectWithoutSamplesIsNamedAndTheBusiestLeads() {
    Analysis all = recording(true);
    Analysis a = all.narrowed(p -> !all.isSubject(p), p -> p.comm); // perf record -a -- sleep 1
    assertEquals("java", a.headline().comm);
    assertThat(new ConsoleSummary().render(a), startsWith("subject: prog (pid 1234), the"
        + " program perf started, has no samples; showing the busiest process, java (pid 900);"
        + " choose another with --comm or -p\n"));
  }

  @Test
  void aChosenProcessNeedsNoWord() {
    Analysis a = recording(true);
    a = a.withProcessSelection("--comm java");
    assertEquals("", SubjectNote.of(a));
    assertThat(new ConsoleSummary().render(a), not(containsString("subject")));
  }
}
