'use strict';
// Load histogram and load timeline, as SVG.
const Charts = (() => {
  const { el, svg } = LP;

  function niceMax(v) {
    if (v <= 0) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 2.5, 5, 10]) if (v <= m * p) return m * p;
    return 10 * p;
  }

  /**
   * CPU time and real time at each load k, as grouped bars, so the gap between them shows.
   * cpu[k-1], real[k-1] are fractions; every bar carries data-k, data-series and data-pct.
   */
  function histogram(cpu, real) {
    const n = Math.max(cpu.length, real.length);
    const W = 600, H = 230, L = 44, R = 10, T = 10, B = 34;
    const max = niceMax(100 * Math.max(0, ...cpu, ...real));
    const band = (W - L - R) / Math.max(1, n);
    const bar = Math.max(1, Math.min(22, band * 0.4));
    const y = (v) => T + (H - T - B) * (1 - v / max);
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'histogram',
      role: 'img', 'aria-label': 'CPU time and real time at each load' });
    const axis = svg('g', { class: 'axis' });
    for (let i = 0; i <= 4; i++) {
      const v = (max * i) / 4;
      axis.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), 'stroke-dasharray': i ? '2 3' : null }),
        svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', text: v + '%' }));
    }
    const step = Math.ceil(n / 24);
    for (let k = 1; k <= n; k++) {
      const x0 = L + band * (k - 1) + band / 2;
      if ((k - 1) % step === 0 || k === n) {
        axis.append(svg('text', { x: x0, y: H - B + 14, 'text-anchor': 'middle', text: String(k) }));
      }
    }
    axis.append(svg('text', { x: (L + W - R) / 2, y: H - 4, 'text-anchor': 'middle',
      text: 'load (threads of the process on a CPU)' }));
    root.append(axis);
    for (let k = 1; k <= n; k++) {
      const x0 = L + band * (k - 1) + band / 2;
      [['cpu', cpu[k - 1] || 0, x0 - bar], ['real', real[k - 1] || 0, x0]].forEach(([s, f, x]) => {
        const v = 100 * f;
        const r = svg('rect', { class: 'bar ' + s, x, width: bar, y: y(v), height: Math.max(0, y(0) - y(v)),
          'data-k': k, 'data-series': s, 'data-pct': v.toFixed(2) });
        r.addEventListener('mousemove', (e) => LP.tip(e, 'load ' + k, [
          'CPU time: ' + LP.pct(100 * (cpu[k - 1] || 0)), 'real time: ' + LP.pct(100 * (real[k - 1] || 0))]));
        r.addEventListener('mouseleave', LP.hideTip);
        root.append(r);
      });
    }
    const legend = el('div', { class: 'legend' },
      el('span', null, el('span', { class: 'swatch cpu' }), 'CPU time'),
      el('span', null, el('span', { class: 'swatch real' }), 'real time'));
    return el('div', null, legend, root);
  }

  const PHASE_COLORS = ['#2f6fde', '#e8772e', '#2c9a5a', '#9b4fd1', '#c8a312'];

  /**
   * Load over time from the exact run intervals: per bucket a bar of the average load while the
   * process ran (coloured by it) and its peak; below, one band per top function whose opacity is
   * that function's share of the bucket's on-CPU time.
   */
  function timeline(tl, runStartNs, maxLoad) {
    const n = tl.thread_ns.length;
    const phases = tl.phases || [];
    const W = 1000, L = 44, R = 170, T = 10, CH = 150, AX = 28, PH = 16;
    const H = T + CH + AX + phases.length * (PH + 3) + 6;
    const peak = Math.max(1, ...tl.max_load);
    const ymax = niceMax(peak);
    const bw = (W - L - R) / n;
    const y = (v) => T + CH * (1 - v / ymax);
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'timeline', role: 'img',
      'aria-label': 'load over time' });
    const axis = svg('g', { class: 'axis' });
    for (let i = 0; i <= 4; i++) {
      const v = (ymax * i) / 4;
      axis.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), 'stroke-dasharray': i ? '2 3' : null }),
        svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', text: String(+v.toFixed(2)) }));
    }
    const t0 = tl.start_ns - runStartNs;
    const span = n * tl.bucket_ns;
    const tickNs = niceMax(span / 8);
    for (let t = Math.ceil(t0 / tickNs) * tickNs; t <= t0 + span; t += tickNs) {
      const x = L + ((t - t0) / span) * (W - L - R);
      axis.append(svg('line', { x1: x, x2: x, y1: T + CH, y2: T + CH + 4 }),
        svg('text', { x, y: T + CH + 16, 'text-anchor': 'middle', text: (t / 1e9).toFixed(tickNs < 1e8 ? 2 : 1) + ' s' }));
    }
    axis.append(svg('text', { x: W - R + 6, y: T + 12, text: 'avg load' }),
      svg('text', { x: W - R + 6, y: T + 26, text: '— peak load' }));
    root.append(axis);
    let peakPath = '';
    for (let i = 0; i < n; i++) {
      const x = L + i * bw;
      const avg = tl.thread_ns[i] / tl.bucket_ns;
      const busyLoad = tl.busy_ns[i] ? tl.thread_ns[i] / tl.busy_ns[i] : 0;
      if (avg > 0) {
        const r = svg('rect', { class: 'bucket', x, width: Math.max(0.6, bw - 0.3), y: y(avg),
          height: y(0) - y(avg), fill: LP.loadColor(busyLoad, maxLoad), 'data-avg-load': avg.toFixed(4) });
        const from = t0 + i * tl.bucket_ns;
        r.addEventListener('mousemove', (e) => LP.tip(e,
          (from / 1e9).toFixed(3) + ' – ' + ((from + tl.bucket_ns) / 1e9).toFixed(3) + ' s', [
            'average load: ' + avg.toFixed(2),
            'load while on a CPU: ' + busyLoad.toFixed(2),
            'peak load: ' + tl.max_load[i],
            ...phases.filter((p) => p.cpu_ns[i] > 0).map((p) => p.name + ': ' + LP.seconds(p.cpu_ns[i]) + ' CPU')]));
        r.addEventListener('mouseleave', LP.hideTip);
        root.append(r);
      }
      peakPath += (i ? 'L' : 'M') + x.toFixed(1) + ' ' + y(tl.max_load[i]).toFixed(1) + 'H' + (x + bw).toFixed(1);
    }
    root.append(svg('path', { d: peakPath, fill: 'none', stroke: '#3a4150', 'stroke-width': 1, opacity: 0.6 }));
    phases.forEach((p, j) => {
      const top = T + CH + AX + j * (PH + 3);
      const color = PHASE_COLORS[j % PHASE_COLORS.length];
      const g = svg('g', { class: 'phase', 'data-name': p.name });
      g.append(svg('rect', { x: L, y: top, width: W - L - R, height: PH, fill: '#f0f2f6' }));
      for (let i = 0; i < n; i++) {
        if (p.cpu_ns[i] <= 0 || tl.thread_ns[i] <= 0) continue;
        const share = Math.min(1, p.cpu_ns[i] / tl.thread_ns[i]);
        g.append(svg('rect', { x: L + i * bw, y: top, width: Math.max(0.6, bw), height: PH, fill: color,
          opacity: (0.15 + 0.85 * share).toFixed(3) }));
      }
      const label = svg('text', { x: W - R + 6, y: top + PH - 4 });
      const name = p.name;
      label.textContent = name.length > 26 ? name.slice(0, 25) + '…' : name;
      g.append(svg('title', { text: name }), label);
      root.append(g);
    });
    return root;
  }

  return { histogram, timeline };
})();
