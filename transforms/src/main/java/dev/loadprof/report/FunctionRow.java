package dev.loadprof.report;

/**
 * One function of one process, as functions.txt, summary.json and the console show it.
 * Percentages are of the process's total (load-filtered) real or CPU time.
 *
 * @param name the frame symbol; functions are identified by name alone, as pprof -top does
 * @param savedPct real time saved, in % of the process's real time, if this function ran at the
 *     process's best observed average load
 */
public record FunctionRow(
    String name,
    long flatWallNs,
    long cumWallNs,
    long flatCpuNs,
    double flatRealPct,
    double cumRealPct,
    double flatCpuPct,
    double avgLoad,
    double savedPct) {}
