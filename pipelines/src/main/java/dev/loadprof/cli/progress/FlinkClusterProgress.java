package dev.loadprof.cli.progress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * The progress of a job on a remote Flink cluster, where the readers' own counters live in the
 * TaskManagers: read from the job's metrics in the cluster's REST API ({@code /jobs/<id>}), which
 * the cluster updates as records flow between its tasks. Polled twice a second on a thread of
 * its own; {@link #get} returns the latest look.
 *
 * <p>A loadprof stage is the Flink task (a chain of operators) that holds its step: decoding is
 * the task of "Decode pieces with perf script" (pieces handed on, of those planned once the
 * planning task finished), reading the one of "Gather the pieces of each input" that parses
 * (records handed on: event blocks and one run info per input; the total is known only at the
 * end), joining the one of "Group CPUs of a window" (records taken in, of those its inputs have
 * sent), writing the one of "Write reports" (its tasks finished). The line shows the latest
 * stage begun (one whose task took in or handed on a record). A job without these steps, or
 * before them, shows its tasks finished of all its tasks; before the cluster lists the job,
 * "submitting".
 */
public final class FlinkClusterProgress implements ProgressView.ProgressSource, AutoCloseable {
  static final int POLL_MS = 500;
  static final ProgressView SUBMITTING = new ProgressView("submitting", "tasks", 1, 0, -1);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One loadprof stage: the operator that marks its task, and what is counted there. */
  private enum Stage {
    DECODING("decoding", "pieces", "FlatMap",
        "/Decode pieces with perf script/ParMultiDo(Decode))"),
    READING("reading", "records", "GroupReduce", "/Gather the pieces of each input)"),
    JOINING("joining", "records", "GroupReduce", "/Group CPUs of a window)"),
    WRITING("writing", "tasks", "FlatMap", "/Write reports/ParMultiDo(Write))");

    final String label;
    final String unit;
    final String operatorKind;
    final String operatorEnd;

    Stage(String label, String unit, String operatorKind, String operatorEnd) {
      this.label = label;
      this.unit = unit;
      this.operatorKind = operatorKind;
      this.operatorEnd = operatorEnd;
    }

    /** Whether one of the task's chained operators is this stage's. */
    boolean marks(String taskName) {
      String chain = taskName.startsWith("CHAIN ") ? taskName.substring(6) : taskName;
      for (String operator : chain.split(" -> ")) {
        if (operator.startsWith(operatorKind + " (") && operator.endsWith(operatorEnd)) {
          return true;
        }
      }
      return false;
    }
  }

  private final HttpClient http;
  private final String base;
  private final String jobName;
  private final Set<String> earlierJobs;
  private final ScheduledExecutorService poller;
  private volatile String jobId;
  private volatile ProgressView latest = SUBMITTING;

  private FlinkClusterProgress(String base, String jobName) {
    this.base = base;
    this.jobName = jobName;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    this.earlierJobs = new HashSet<>();
    this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "loadprof-flink-progress");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * The cluster's REST address (http://HOST:PORT) when {@code options} run the job on a remote
   * Flink cluster (FlinkRunner with a flinkMaster HOST:PORT); null for every other runner and
   * for embedded Flink ([local], [auto]), whose progress is counted in this JVM.
   */
  public static String restAddress(PipelineOptions options) {
    if (!options.getRunner().getSimpleName().equals("FlinkRunner")) {
      return null;
    }
    String master;
    try { // no compile-time dependency on the Flink runner (a runtime choice)
      Class<? extends PipelineOptions> flink = Class.forName(
          "org.apache.beam.runners.flink.FlinkPipelineOptions", true,
          options.getRunner().getClassLoader()).asSubclass(PipelineOptions.class);
      master = (String) flink.getMethod("getFlinkMaster").invoke(options.as(flink));
    } catch (ReflectiveOperationException | ClassCastException e) {
      return null;
    }
    if (master == null || master.isBlank() || master.startsWith("[")) {
      return null;
    }
    return master.contains("://") ? master : "http://" + master;
  }

  /**
   * Starts watching the job named {@code jobName} on the cluster at {@code restAddress}. Jobs of
   * that name the cluster already lists are not this one.
   */
  public static FlinkClusterProgress watch(String restAddress, String jobName) {
    FlinkClusterProgress p = new FlinkClusterProgress(
        restAddress.endsWith("/") ? restAddress.substring(0, restAddress.length() - 1)
            : restAddress, jobName);
    try {
      p.earlierJobs.addAll(jobIds(p.getJson("/jobs/overview"), jobName));
    } catch (IOException | RuntimeException e) {
      // no answer yet: the job is submitted to this cluster, and the poller will see it there
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    p.poller.scheduleWithFixedDelay(p::poll, 0, POLL_MS, TimeUnit.MILLISECONDS);
    return p;
  }

  @Override
  public ProgressView get() {
    return latest;
  }

  /** The job's id once the cluster listed it, else null. */
  String jobId() {
    return jobId;
  }

  private void poll() {
    try {
      if (jobId == null) {
        Set<String> ids = jobIds(getJson("/jobs/overview"), jobName);
        ids.removeAll(earlierJobs);
        if (ids.isEmpty()) {
          return;
        }
        jobId = ids.iterator().next();
      }
      latest = view(getJson("/jobs/" + jobId));
    } catch (IOException | RuntimeException e) {
      // keep the last look; the line goes on with it until the cluster answers again
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private JsonNode getJson(String path) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(2)).GET().build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("GET " + path + ": HTTP " + response.statusCode());
    }
    return JSON.readTree(response.body());
  }

  /** The ids of the jobs named {@code name} in a {@code /jobs/overview} answer. */
  static Set<String> jobIds(JsonNode overview, String name) {
    Set<String> ids = new HashSet<>();
    for (JsonNode job : overview.path("jobs")) {
      if (name.equals(job.path("name").asText())) {
        ids.add(job.path("jid").asText());
      }
    }
    return ids;
  }

  /** The progress a {@code /jobs/<id>} answer shows (see the class comment). */
  static ProgressView view(JsonNode job) {
    JsonNode vertices = job.path("vertices");
    Map<Stage, JsonNode> tasks = new HashMap<>();
    for (JsonNode vertex : vertices) {
      for (Stage stage : Stage.values()) {
        if (stage.marks(vertex.path("name").asText()) && !tasks.containsKey(stage)) {
          tasks.put(stage, vertex);
        }
      }
    }
    Stage[] stages = Stage.values();
    for (int i = stages.length - 1; i >= 0; i--) {
      JsonNode task = tasks.get(stages[i]);
      if (task != null && begun(task)) {
        return stageView(stages[i], task, job);
      }
    }
    long finished = 0;
    long all = 0;
    for (JsonNode vertex : vertices) {
      finished += vertex.path("tasks").path("FINISHED").asLong();
      all += vertex.path("parallelism").asLong();
    }
    return new ProgressView("running", "tasks", 1, finished, all > 0 ? all : -1);
  }

  /**
   * Whether a task took in or handed on a record, or finished. Bytes alone do not count: a task
   * reads a few bytes of events (an input's end) before any record, and a sorting task reads
   * all its input before its reducer takes in the first record.
   */
  private static boolean begun(JsonNode task) {
    JsonNode m = task.path("metrics");
    return m.path("read-records").asLong() > 0 || m.path("write-records").asLong() > 0
        || task.path("tasks").path("FINISHED").asLong() > 0;
  }

  private static ProgressView stageView(Stage stage, JsonNode task, JsonNode job) {
    JsonNode m = task.path("metrics");
    return switch (stage) {
      case DECODING -> new ProgressView(stage.label, stage.unit, 1,
          m.path("write-records").asLong(), finishedFeederRecords(job, "/Plan perf.data pieces/"));
      case READING -> new ProgressView(stage.label, "records", 1, // records read, not bytes
          m.path("write-records").asLong(), -1);
      case JOINING -> {
        long done = m.path("read-records").asLong();
        long sent = recordsSentTo(job, task.path("id").asText());
        yield new ProgressView(stage.label, stage.unit, 1, done, sent >= done ? sent : -1);
      }
      case WRITING -> new ProgressView(stage.label, stage.unit, 1,
          task.path("tasks").path("FINISHED").asLong(), task.path("parallelism").asLong());
    };
  }

  /**
   * Records written by the task whose name holds {@code step}, once all its subtasks finished
   * (the total a later stage works through); -1 before.
   */
  private static long finishedFeederRecords(JsonNode job, String step) {
    for (JsonNode vertex : job.path("vertices")) {
      if (vertex.path("name").asText().contains(step)) {
        return "FINISHED".equals(vertex.path("status").asText())
            ? vertex.path("metrics").path("write-records").asLong() : -1;
      }
    }
    return -1;
  }

  /**
   * The records sent so far to the task {@code id} by its inputs in the job's plan (broadcast
   * inputs left out: each of their records reaches every subtask).
   */
  private static long recordsSentTo(JsonNode job, String id) {
    Map<String, Long> written = new HashMap<>();
    for (JsonNode vertex : job.path("vertices")) {
      written.put(vertex.path("id").asText(),
          vertex.path("metrics").path("write-records").asLong());
    }
    long sent = 0;
    for (JsonNode node : job.path("plan").path("nodes")) {
      if (id.equals(node.path("id").asText())) {
        for (JsonNode input : node.path("inputs")) {
          if (!input.path("ship_strategy").asText().toUpperCase().contains("BROADCAST")) {
            sent += written.getOrDefault(input.path("id").asText(), 0L);
          }
        }
      }
    }
    return sent;
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
