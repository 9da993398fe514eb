'use strict';
// nightly.html of `loadprof nightly`: the data is nightly.json plus the charted history
// (history.csv's values). Change points are marked on the charts and link to their rows.
(() => {
  const { el, card, seconds, pct, fixed } = LP;
  const D = LP.data();
  const app = document.getElementById('app');

  const CHARTS = [
    { metric: 'real_time', title: 'real (wall) time', fmt: seconds },
    { metric: 'serial_fraction', title: 'serial fraction', fmt: (v) => pct(100 * v, 1) },
    { metric: 'avg_load', title: 'average load', fmt: (v) => fixed(v) },
  ];

  function sameEntity(a, b) {
    return a.benchmark === b.benchmark && a.process === b.process && (a.function ?? null) === (b.function ?? null)
      && a.metric === b.metric;
  }

  function header() {
    return el('div', { class: 'topbar' },
      el('div', { class: 'grow' },
        el('h1', { text: 'loadprof nightly' }),
        el('p', { class: 'sub', text: 'latest night ' + D.latest_night + ' · ' + D.benchmarks.length
          + (D.benchmarks.length === 1 ? ' benchmark' : ' benchmarks') + ' · ' + D.change_points.length
          + (D.change_points.length === 1 ? ' change point' : ' change points') + ' · loadprof nightly '
          + D.loadprof_nightly_version })),
      Changes.verdict(D));
  }

  function latestChanges() {
    const body = D.changes.length
      ? Changes.table(D.changes, D.settings.alpha, 'change-', true)
      : el('p', { class: 'ok', text: 'The latest night changed nothing significantly and past the thresholds.' });
    const c = card('Latest night (' + D.latest_night + ') against the nights before it', body,
      el('p', { class: 'note', text: 'Each benchmark’s latest night compared with its nights since its last change '
        + 'point (at most ' + D.settings.history_nights + '): with two or more of them, the latest night’s value (the '
        + 'median of its runs) against the prediction interval of their values, one per night; with one, run against '
        + 'run as loadprof compare does; real-time figures judged together (Holm).' }));
    c.id = 'changes';
    return c;
  }

  /** The index of the latest night's change of the same figure, or -1. */
  function latestChangeOf(cp) {
    return cp.night === D.latest_night ? D.changes.findIndex((r) => sameEntity(r, cp)) : -1;
  }

  function changePoints() {
    const rows = D.change_points.map((cp, i) => Object.assign({ index: i }, cp));
    const body = rows.length ? LP.table([
      { label: 'night', get: (r) => r.night, text: true },
      { label: 'benchmark', get: (r) => r.benchmark, text: true },
      { label: 'process', get: (r) => r.process, text: true, cls: 'name' },
      { label: 'function', get: (r) => (r.function == null ? '(whole process)' : r.function), text: true, cls: 'name' },
      { label: 'metric', get: (r) => r.metric.replace(/_/g, ' '), text: true },
      { label: 'before', get: (r) => r.before, show: (r) => Changes.value(r.unit, r.before) },
      { label: 'after', get: (r) => r.after, show: (r) => Changes.value(r.unit, r.after) },
      { label: 'change', get: (r) => r.delta_pct, fmt: Changes.deltaPct },
      { label: 'kind', get: (r) => r.kind, text: true },
      { label: 'cause', get: (r) => r.cause || '', show: Changes.cause, text: true },
      // As in the changes table: only when some change point has a critical path on both sides.
      rows.some((r) => r.critical_path_change_ns != null) ? { label: 'critical path',
        get: (r) => r.critical_function || '', show: Changes.critical, text: true } : null,
      { label: 'p', get: (r) => r.p_value, fmt: (v) => v.toPrecision(2), title: 'E-Divisive permutation test' },
      { label: 'latest comparison', get: (r) => latestChangeOf(r), text: true,
        show: (r) => { const j = latestChangeOf(r); return j < 0 ? '-' : el('a', { href: '#change-' + j, text: 'change #' + (j + 1) }); } },
    ].filter((c) => c), rows, 0, null, true, (r) => ({ id: 'cp-' + r.index, class: 'change ' + r.kind }))
      : el('p', { class: 'ok', text: 'No change point in the history.' });
    if (rows.length) body.classList.add('changes');
    const c = card('Change points (' + rows.length + ')', body,
      el('p', { class: 'note', text: 'A change point is the first night of a new level: before and after are the medians '
        + 'of the nightly values between change points. '
        + D.change_points_below_thresholds + ' more were below the thresholds and ' + D.change_points_within_noise
        + ' within the series’ noise (not shown).' }));
    c.id = 'change-points';
    return c;
  }

  function marksFor(match) {
    const marks = [];
    D.change_points.forEach((cp, i) => {
      if (match(cp)) {
        marks.push({ night: cp.night, href: '#cp-' + i, label: cp.night + ': ' + Changes.entity(cp) + ' '
          + cp.metric.replace(/_/g, ' ') + ' ' + Changes.deltaPct(cp.delta_pct) + ' (' + cp.kind
          + (cp.cause ? ', cause ' + cp.cause : '') + ') — click for details' });
      }
    });
    return marks;
  }

  /** The four trend charts of one process of a benchmark. */
  function processCharts(b, process, series) {
    const mine = series.filter((s) => s.process === process);
    const charts = CHARTS.map((c) => {
      const s = mine.find((x) => x.function == null && x.metric === c.metric);
      if (!s) return null;
      const box = Charts.trend(c.title, b.nights, [{ id: c.metric, label: c.title, points: s.points }],
        marksFor((cp) => sameEntity(cp, s)), c.fmt);
      box.setAttribute('data-metric', c.metric);
      return box;
    });
    const functions = mine.filter((x) => x.function != null && x.metric === 'real_time');
    if (functions.length) {
      const box = Charts.trend('top functions’ real time', b.nights,
        functions.map((s) => ({ id: s.function, label: s.function, points: s.points })),
        marksFor((cp) => cp.benchmark === b.benchmark && cp.process === process && cp.function != null
          && cp.metric === 'real_time'), seconds);
      box.setAttribute('data-metric', 'functions');
      charts.push(box);
    }
    return el('div', { class: 'process-trends', 'data-process': process },
      el('h3', { text: process }), el('div', { class: 'trends' }, ...charts.filter((x) => x)));
  }

  function benchmark(b, i) {
    const series = D.series.filter((s) => s.benchmark === b.benchmark);
    const processes = [...new Set(series.map((s) => s.process))];
    const latest = b.latest_baseline_runs == null ? 'no earlier night to compare the latest with'
      : 'latest night: ' + b.latest_runs.join(', ') + ' against ' + b.latest_baseline_runs.length + ' earlier runs';
    const c = card('Benchmark ' + (b.benchmark || '(unnamed)'),
      el('p', { class: 'sub', text: b.nights.length + ' nights, ' + b.nights[0] + ' to ' + b.nights[b.nights.length - 1]
        + ' · ' + latest }),
      ...processes.map((p) => processCharts(b, p, series)),
      el('p', { class: 'note', text: 'Medians over each night’s runs. ▼ and the dashed line: a change point; click it for '
        + 'its before/after levels, cause and significance.' }));
    c.id = 'bench-' + i;
    c.setAttribute('data-benchmark', b.benchmark);
    return c;
  }

  app.append(header(), ...Changes.excludedAndNotes(D), latestChanges(), changePoints(),
    ...D.benchmarks.map(benchmark));
  window.loadprofRenderedMs = performance.now();
  document.body.setAttribute('data-ready', '1');
})();
