'use strict';
// report.html of `loadprof analyze`: one run or many; a selector picks the run and process.
(() => {
  const { el, seconds, pct, fixed, figure, card } = LP;
  const D = LP.data();
  const S = D.strings;
  const app = document.getElementById('app');
  const runsById = new Map(D.runs.map((r) => [r.run_id, r]));

  function label(i) {
    const p = D.processes[i];
    return (D.runs.length > 1 ? p.run_id + ' · ' : '') + p.comm + ' (pid ' + p.pid + ')'
      + (p.subject ? ' · subject' : '');
  }

  function functionTable(rows) {
    return LP.table([
      { label: 'function', get: (r) => S[r[0]], text: true, cls: 'name' },
      { label: 'real %', get: (r) => r[1], fmt: pct, title: 'flat real time, % of the process' },
      { label: 'cum real %', get: (r) => r[2], fmt: pct, title: 'real time of stacks containing it' },
      { label: 'CPU %', get: (r) => r[3], fmt: pct, title: 'flat CPU time, % of the process' },
      { label: 'avg load', get: (r) => r[4], fmt: (v) => fixed(v) },
      { label: 'saving %', get: (r) => r[5], fmt: pct,
        title: 'real time saved if it ran at the best observed average load' },
    ], rows, 1);
  }

  function header(p, run) {
    const amdahl = p.amdahl_limit == null ? (p.serial_fraction === 0 ? '∞' : '-') : fixed(p.amdahl_limit) + '×';
    return el('div', { class: 'figures', id: 'figures' },
      figure('real time', seconds(p.wall_ns), 'real (wall) time from the samples: Σ CPU time / load'),
      figure('CPU time', seconds(p.cpu_ns)),
      figure('average load', fixed(p.avg_load)),
      figure('serial fraction', p.serial_fraction == null ? '-' : fixed(100 * p.serial_fraction, 1) + '%',
        'share of on-CPU wall time at load 1'),
      figure('Amdahl limit', amdahl, 'highest speedup possible with this serial fraction'),
      figure('CPUs', String(run.cpus)),
      figure('sampling event', run.sampling_event || '-'),
      figure('samples', p.samples.toLocaleString('en')),
      figure('span', p.span_ns ? seconds(p.span_ns) : '-', 'first to last instant a thread of the process ran'));
  }

  function warnings(run) {
    if (!run.warnings.length) return null;
    return el('div', { class: 'warnings', role: 'alert', id: 'warnings' },
      'Trace health warnings for run ' + run.run_id + ':',
      el('ul', null, ...run.warnings.map((w) => el('li', { text: w }))));
  }

  function health(run) {
    const h = run.health;
    const bits = ['lines', 'sample_records', 'switch_records', 'malformed_lines', 'chain_breaks_repaired',
      'samples_contradicted', 'lost_events'].filter((k) => h[k] != null).map((k) => k.replace(/_/g, ' ') + ' ' + h[k]);
    return el('p', { class: 'note', text: 'trace health: ' + (bits.join(' · ') || 'no counters')
      + (run.malformed_examples.length ? ' · first malformed: ' + run.malformed_examples[0] : '') });
  }

  function processView(i) {
    const p = D.processes[i];
    const run = runsById.get(p.run_id);
    const maxLoad = Math.max(p.cpu_histogram.length, 2);
    const parts = [];
    parts.push(warnings(run));
    parts.push(el('section', { class: 'card', id: 'process-header' },
      el('h2', null, p.comm + ' (pid ' + p.pid + ')' + (p.subject ? ' · subject' : '')),
      el('p', { class: 'sub', text: 'run ' + run.run_id + (run.host ? ' on ' + run.host : '') + ' · ' + run.source
        + (D.load_filter !== 'all' ? ' · load filter ' + D.load_filter + ' (functions and flame graph)' : '') }),
      header(p, run), health(run)));
    const hist = card('Load histograms', Charts.cpuAndReal(p.cpu_histogram, p.realtime_histogram),
      el('p', { class: 'note', text: 'Share of CPU time and of real time spent at each load. Real time at load k is '
        + 'CPU time / k: a gap between the bars is parallelism the program did not use.' }));
    hist.id = 'histograms';
    const w = p.wall;
    const lanes = w && w.has_states ? w.lanes : null;
    const axis = Charts.sharedAxis(p.load_timeline, lanes);
    const tl = p.load_timeline
      ? card('Load timeline', Charts.timeline(p.load_timeline, run.start_ns, maxLoad, axis),
        el('p', { class: 'note', text: 'Average load per ' + seconds(p.load_timeline.bucket_ns)
          + ' from the exact run intervals (bar colour: load while on a CPU), the peak load, and where the top '
          + 'functions\u2019 samples fall (band opacity: their share of the on-CPU time). Time from the run start.' }),
        threadStates(p, run, lanes, axis))
      : card('Load timeline', el('p', { class: 'note', text: 'No run intervals for this process.' }),
        threadStates(p, run, lanes, axis));
    tl.id = 'timeline';
    const exact = card('Time at load', timeAtLoad(p),
      el('p', { class: 'note', text: 'Exact wall time with k threads of the process on a CPU, from the run '
        + 'intervals (load 0: the process existed, none of its threads ran).' }));
    exact.id = 'time-at-load';
    parts.push(el('div', { class: 'row' }, hist, exact));
    parts.push(tl);
    const graph = Flame.realTime(p.flame, S, maxLoad);
    const flame = card('Real-time flame graph', graph,
      el('p', { class: 'note', text: 'Click a frame to zoom, the top row to go back (keys: Escape, −, +; Ctrl+wheel '
        + 'zooms; the zoom is kept in the URL). Callers shows who calls the zoomed function and what it calls, over '
        + 'the whole graph. The search takes a regular expression. A run of unresolved frames is one, [unknown×N]. '
        + 'Frames under 0.1% of both real and CPU time are merged into [other].' }));
    flame.id = 'flame';
    const offGraph = w && w.has_states && w.offcpu_flame ? Flame.offCpu(w.offcpu_flame, S, w.state_names) : null;
    if (offGraph) {
      const off = card('Off-CPU flame graph', offGraph,
        el('p', { class: 'note', text: 'Where the threads waited while off CPU, by the stack they were switched out '
          + 'with (as offcpu.folded)' + (w.has_stacks ? '' : '; this trace has no switch-out stacks (record with -g), '
          + 'so only the states show') + '. Frames under 0.1% are merged into [other].' }));
      off.id = 'offcpu-flame';
      parts.push(el('div', { class: 'row flames' }, flame, off));
    } else {
      parts.push(flame);
    }
    const critical = Critical.view(p, S);
    parts.push(critical.card);
    const fn = card('Functions', functionTable(p.functions),
      el('p', { class: 'note', text: p.functions.length + ' of ' + p.function_count + ' functions (as functions.txt); '
        + 'best observed average load ' + fixed(p.best_avg_load) + '. Click a header to sort.' }));
    fn.id = 'functions';
    parts.push(fn);
    return { parts: parts.filter((x) => x), graphs: [graph, offGraph, critical.graph].filter((x) => x) };
  }

  /**
   * Below the load timeline, on its time axis: the wall line and one lane per thread coloured by
   * its state; one line instead when the run has no off-CPU detail.
   */
  function threadStates(p, run, lanes, axis) {
    const w = p.wall;
    const box = el('div', { id: 'thread-states' }, el('h3', { text: 'Thread states' }));
    if (!w || !w.has_states) {
      box.append(el('p', { class: 'note', id: 'no-offcpu', text: !w
        ? 'No thread states for this process: it has no run intervals.'
        : 'No off-CPU detail in run ' + run.run_id + ': its switch records carry no thread states (a trace without '
          + 'sched:sched_switch, or an archive written before loadprof kept them), so there is no thread-state '
          + 'timeline and no off-CPU flame graph.' }));
      return box;
    }
    if (w.line) box.append(el('p', { class: 'sub wall-line mono', text: w.line }));
    if (!lanes) {
      box.append(el('p', { class: 'note', text: 'The filters keep none of this process\u2019s thread time.' }));
      return box;
    }
    const laneSvg = Charts.stateLanes(lanes, w.state_names, run.start_ns, axis, p.pid);
    box.append(Charts.stateLegend(w.state_names, w.by_state_ns), laneSvg,
      el('p', { class: 'note', text: 'One lane per thread, coloured by the state that held most of its time in each '
        + seconds(lanes.bucket_ns) + ' (legend: thread time per state, as summary.json\u2019s thread_states).'
        + (lanes.threads > lanes.lanes.length ? ' ' + lanes.lanes.length + ' of ' + lanes.threads
          + ' threads shown (those with the most time); ' + (lanes.threads - lanes.lanes.length) + ' left out.' : '') }));
    if (p.critical) box.append(Critical.overlayNote(p.critical, Critical.overlay(laneSvg, p.critical, run.start_ns)));
    return box;
  }

  function timeAtLoad(p) {
    const total = p.time_at_load_ns.reduce((a, b) => a + b, 0) || 1;
    const rows = p.time_at_load_ns.map((ns, k) => [k, ns]).filter((r) => r[1] > 0);
    const time = LP.durationScale(rows.map((r) => r[1])); // one unit for the column
    return LP.table([
      { label: 'load', get: (r) => r[0] },
      { label: 'time', get: (r) => r[1], fmt: time },
      { label: '% of span', get: (r) => 100 * r[1] / total, fmt: (v) => pct(v) },
      { label: 'real-time histogram', get: (r) => (r[0] ? 100 * (p.realtime_histogram[r[0] - 1] || 0) : null),
        fmt: (v) => (v == null ? '-' : pct(v)), title: 'from samples, as the bars' },
    ], rows, 0, null, true);
  }

  function runTable(select) {
    return LP.table([
      { label: 'run', get: (r) => r.run_id, text: true },
      { label: 'host', get: (r) => r.host, text: true },
      { label: 'process', get: (r) => r.comm || '-', text: true },
      { label: 'real time', get: (r) => r.wall_ns, fmt: seconds },
      { label: 'CPU time', get: (r) => r.cpu_ns, fmt: seconds },
      { label: 'avg load', get: (r) => r.avg_load, fmt: (v) => fixed(v) },
      { label: 'serial', get: (r) => r.serial_fraction, fmt: serialText },
      { label: 'Amdahl limit', get: (r) => r.amdahl_limit, fmt: (v) => (v == null ? '-' : fixed(v) + '×') },
    ], D.run_table, 0, (r) => { if (r.process >= 0) select(r.process); });
  }

  function serialText(v) {
    return v == null ? '-' : fixed(100 * v, 1) + '%';
  }

  /** A table of the groups; clicking one shows its histograms and top functions beside it. */
  function groupsView() {
    const groups = D.groups.groups;
    const detail = el('div', { id: 'group-detail' });
    function showGroup(g) {
      detail.replaceChildren(el('section', { class: 'card group' },
        el('h3', { text: g.name }),
        el('p', { class: 'sub', text: g.runs + ' runs · ' + g.members + ' processes · real ' + seconds(g.wall_ns)
          + ' · CPU ' + seconds(g.cpu_ns) + ' · avg load ' + fixed(g.avg_load) + ' · serial ' + serialText(g.serial_fraction) }),
        el('div', { class: 'row' }, el('div', { class: 'card' }, Charts.cpuAndReal(g.cpu_histogram, g.realtime_histogram)),
          el('div', { class: 'card' }, functionTable(g.functions)))));
    }
    const list = LP.table([
      { label: 'group', get: (g) => g.name, text: true, cls: 'name' },
      { label: 'runs', get: (g) => g.runs },
      { label: 'processes', get: (g) => g.members },
      { label: 'real time', get: (g) => g.wall_ns, fmt: seconds },
      { label: 'CPU time', get: (g) => g.cpu_ns, fmt: seconds },
      { label: 'avg load', get: (g) => g.avg_load, fmt: (v) => fixed(v) },
      { label: 'serial', get: (g) => g.serial_fraction, fmt: serialText },
    ], groups, 3, (g) => showGroup(g));
    list.id = 'group-list';
    if (groups.length) showGroup(groups[0]);
    return el('div', null, list, detail);
  }

  function render() {
    const title = el('div', { class: 'grow' },
      el('h1', { text: 'loadprof report' }),
      el('p', { class: 'sub', text: D.runs.length + (D.runs.length === 1 ? ' run' : ' runs') + ' · '
        + D.processes.length + ' processes · loadprof ' + D.loadprof_version }),
      D.subject_note ? el('p', { class: 'note', id: 'subject-note', text: D.subject_note }) : null);
    const view = el('div', { id: 'process-view' });
    const select = el('select', { id: 'process-select', 'aria-label': 'run and process' },
      ...D.processes.map((p, i) => el('option', { value: i, text: label(i) })));
    function show(i) {
      // The process shown is in the URL's hash with its graphs' zoom (flame.js), so a link or a
      // reload shows the same view; another process starts unzoomed.
      const params = new URLSearchParams(location.hash.slice(1));
      if (params.get('p') !== String(i)) {
        params.delete('flame');
        params.delete('offcpu');
        params.delete('critical');
        params.set('p', String(i));
        history.replaceState(null, '', '#' + params.toString());
      }
      select.value = String(i);
      const v = processView(i);
      view.replaceChildren(...v.parts);
      v.graphs.forEach((g) => g.flame.draw()); // now that they have their width
    }
    select.addEventListener('change', () => show(+select.value));
    app.append(el('div', { class: 'topbar' }, title,
      D.processes.length > 1 ? el('label', null, 'run / process ', select) : null));
    if (D.run_table) {
      const runs = card('Runs', runTable((i) => { show(i); view.scrollIntoView(); }),
        el('p', { class: 'note', text: 'One row per run: its headline process. Click a row to show it below.' }));
      runs.id = 'runs';
      app.append(runs);
      const groups = card('Groups (' + D.groups.group_by + ')', groupsView(),
        el('p', { class: 'note', text: 'Histograms and functions summed over the members of a group, weighted by time. '
          + 'Click a group to show it.' }));
      groups.id = 'groups';
      app.append(groups);
    }
    app.append(view);
    if (D.processes.length === 0) {
      view.append(card('No process', el('p', { text: 'No process passed the filters.' })),
        ...D.runs.map(warnings).filter((x) => x));
    } else {
      const hash = new URLSearchParams(location.hash.slice(1));
      const linked = hash.has('p') ? +hash.get('p') : -1;
      show(Number.isInteger(linked) && linked >= 0 && linked < D.processes.length ? linked
        : Math.max(0, D.headline));
    }
  }

  render();
  window.loadprofRenderedMs = performance.now();
  document.body.setAttribute('data-ready', '1');
})();
