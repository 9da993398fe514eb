package dev.loadprof.cli;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * What the client does before an analyze job starts, alone, against an archive behind the bench's
 * latency proxy: the wall time, and the proxy's request counts for it.
 *
 * <p>{@code ClientStartBench PROXY_URL ARCHIVE NIGHTS [BEAM_ARGS...]}
 */
public final class ClientStartBench {
  public static void main(String[] args) throws Exception {
    String proxy = args[0];
    String archive = args[1];
    String nights = args[2];
    FileSystems.setDefaultPipelineOptions(PipelineOptionsFactory.fromArgs(
        Arrays.copyOfRange(args, 3, args.length)).create());
    HttpClient http = HttpClient.newHttpClient();
    control(http, proxy + "/__proxy/reset", "POST");
    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
    long t0 = System.nanoTime();
    long cpu0 = cpu.getCurrentThreadCpuTime();
    int runs = select(archive, nights);
    double seconds = (System.nanoTime() - t0) / 1e9;
    // the selecting thread's own CPU (parsing listings and night indexes, the SDK's work)
    double cpuSeconds = (cpu.getCurrentThreadCpuTime() - cpu0) / 1e9;
    System.out.printf("client before the job: %d runs of nights %s in %.2f s (CPU %.2f s)%n",
        runs, nights, seconds, cpuSeconds);
    System.out.print(control(http, proxy + "/__proxy/counts", "GET"));
    System.exit(0); // Beam's S3 filesystem keeps non-daemon threads
  }

  /** What analyze --nights NIGHTS ARCHIVE does before its job ({@link ClientSelection}). */
  static int select(String archive, String nights) {
    return ClientSelection.select(List.of(archive), nights, null, System.err).size();
  }

  private static String control(HttpClient http, String url, String method) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url))
        .method(method, HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }
}
