'use strict';
// compare.html of `loadprof compare`: the data is compare.json plus the side histograms and the
// differential flame tree (one average run per side).
(() => {
  const { el, card, figure, seconds, fixed } = LP;
  const D = LP.data();
  const app = document.getElementById('app');

  function header() {
    return el('div', { class: 'topbar' },
      el('div', { class: 'grow' },
        el('h1', { text: 'loadprof compare' }),
        el('p', { class: 'sub', text: D.baseline_runs.length + ' baseline vs ' + D.candidate_runs.length
          + ' candidate runs · alpha ' + D.alpha + ' · thresholds ' + fixed(100 * D.thresholds.min_relative, 0)
          + '% and ' + seconds(D.thresholds.min_absolute_ns) + ' · loadprof compare ' + D.loadprof_compare_version })),
      Changes.verdict(D));
  }

  function changes() {
    const body = D.changes.length
      ? Changes.table(D.changes, D.alpha, 'change-', false)
      : el('p', { class: 'ok', text: 'No figure changed significantly and past the thresholds.' });
    const c = card('Changes (' + D.changes.length + ')', body,
      el('p', { class: 'note', text: 'Medians over the runs of each side; regressions first. Significance: '
        + 'the p of the figure’s test (Mann–Whitney, or the t-test on the logarithms with too few runs for it) with '
        + 'the confidence interval of the change candidate / baseline, “~” when not significant at alpha, or whether a '
        + 'single candidate run is outside the prediction interval of the baseline runs. Cause of a real-time change: '
        + 'its CPU-work part and its parallelism part (real = CPU / load).' }));
    c.id = 'changes';
    return c;
  }

  /** Real-time and CPU-time histograms of each process, baseline and candidate overlaid. */
  function histograms() {
    const view = el('div', { class: 'row' });
    const sides = (h, key) => [
      { id: 'baseline', label: 'baseline', values: h.baseline[key] },
      { id: 'candidate', label: 'candidate', values: h.candidate[key] }];
    function show(h) {
      view.replaceChildren(
        el('div', { class: 'card', id: 'histogram-real' }, el('h3', { text: 'real time at each load' }),
          Charts.histogram(sides(h, 'realtime_histogram'), true)),
        el('div', { class: 'card', id: 'histogram-cpu' }, el('h3', { text: 'CPU time at each load' }),
          Charts.histogram(sides(h, 'cpu_histogram'), true)));
    }
    const select = el('select', { id: 'histogram-process', 'aria-label': 'process' },
      ...D.histograms.map((h, i) => el('option', { value: i, text: h.process })));
    select.addEventListener('change', () => show(D.histograms[+select.value]));
    if (D.histograms.length) show(D.histograms[0]);
    const c = card('Load histograms', D.histograms.length > 1 ? el('label', null, 'process ', select) : null, view,
      el('p', { class: 'note', text: 'Share of each side’s time at each load, summed over its runs (the baseline wide, '
        + 'the candidate a narrower bar over it). A candidate shifted to lower loads lost parallelism.' }));
    c.id = 'histograms';
    return c;
  }

  function flame() {
    const graph = Flame.diff(D.flame, D.strings);
    const c = card('Differential flame graph', graph,
      el('p', { class: 'note', text: 'One average run per side (as diff.folded), process name first. Click a frame to zoom, '
        + 'the top row to go back; hover for both sides’ real time, CPU time and load.' }));
    c.id = 'flame';
    return { card: c, graph };
  }

  function processFigures() {
    const t = Changes.table(D.processes, D.alpha, 'figure-', false);
    const c = card('Every process figure', t,
      el('p', { class: 'note', text: 'All figures compared for the processes, reported or not (compare.json’s processes).' }));
    c.id = 'process-figures';
    return c;
  }

  function runs() {
    const c = card('Runs',
      el('div', { class: 'figures' },
        figure('baseline runs', String(D.baseline_runs.length)), figure('candidate runs', String(D.candidate_runs.length)),
        figure('left out', String(D.excluded_runs.length))),
      el('p', { class: 'note mono', id: 'baseline-runs', text: 'baseline: ' + D.baseline_runs.join(', ') }),
      el('p', { class: 'note mono', id: 'candidate-runs', text: 'candidate: ' + D.candidate_runs.join(', ') }));
    c.id = 'runs';
    return c;
  }

  app.append(header(), ...Changes.excludedAndNotes(D), changes(), histograms());
  const f = flame();
  app.append(f.card, processFigures(), runs());
  f.graph.flame.draw(); // now that it has its width
  window.loadprofRenderedMs = performance.now();
  document.body.setAttribute('data-ready', '1');
})();
