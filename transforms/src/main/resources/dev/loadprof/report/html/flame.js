'use strict';
// The real-time flame graph (root on top): frame widths are real or CPU time, colours the
// frame's average load (CPU time / real time), so serial code is hot red.
const Flame = (() => {
  const { el, svg } = LP;
  const ROW = 18;

  /** [name, wall, cpu, [children]] with name indices into strings -> linked nodes. */
  function build(a, strings, parent, depth) {
    const node = { name: strings[a[0]], wall: a[1], cpu: a[2], parent, depth, children: [] };
    if (a[3]) for (const c of a[3]) node.children.push(build(c, strings, node, depth + 1));
    return node;
  }

  function avgLoad(n) {
    return n.wall > 0 ? n.cpu / n.wall : 0;
  }

  /**
   * A flame graph in a card body. maxLoad scales the colours; returns the element, with
   * zoom/search/setMode on it for the page (and the browser tests) to call.
   */
  function graph(tree, strings, maxLoad) {
    const root = build(tree, strings, null, 0);
    root.name = 'all';
    let zoomed = root;
    let mode = 'wall';
    let query = '';
    const status = el('span', { class: 'note', 'aria-live': 'polite' });
    const search = el('input', { type: 'search', placeholder: 'search functions', 'aria-label': 'search functions',
      oninput: () => { query = search.value; draw(); } });
    const radios = ['wall', 'cpu'].map((m) => {
      const r = el('input', { type: 'radio', name: 'flame-width-' + Math.random().toString(36).slice(2), value: m,
        onchange: () => { mode = m; draw(); } });
      r.checked = m === mode;
      return el('label', null, r, m === 'wall' ? 'real-time widths' : 'CPU-time widths');
    });
    const reset = el('button', { type: 'button', onclick: () => zoom(root) }, 'Reset zoom');
    const crumbs = el('div', { class: 'crumbs' });
    const host = el('div', { class: 'flame' });
    const legend = loadLegend(maxLoad);
    const box = el('div', null,
      el('div', { class: 'controls' }, search, ...radios, reset, status), crumbs, host, legend);

    function zoom(node) {
      zoomed = node;
      draw();
    }

    function width(n) {
      return mode === 'wall' ? n.wall : n.cpu;
    }

    function draw() {
      LP.hideTip();
      const W = Math.max(400, host.clientWidth || 1000);
      const total = width(zoomed) || 1;
      const frames = [];
      // Ancestors of the zoomed frame, full width.
      const chain = [];
      for (let a = zoomed.parent; a; a = a.parent) chain.unshift(a);
      chain.forEach((a) => frames.push({ n: a, x: 0, w: W, ancestor: true }));
      (function lay(n, x) {
        const w = (width(n) / total) * W;
        if (w < 0.5) return;
        frames.push({ n, x, w, ancestor: false });
        let cx = x;
        for (const c of n.children) {
          lay(c, cx);
          cx += (width(c) / total) * W;
        }
      })(zoomed, 0);
      const depth = Math.max(...frames.map((f) => f.n.depth)) + 1;
      const s = svg('svg', { width: W, height: depth * ROW, viewBox: `0 0 ${W} ${depth * ROW}`,
        role: 'img', 'aria-label': 'flame graph' });
      const q = query.toLowerCase();
      let matched = 0;
      const countedUnder = new Set();
      for (const f of frames) {
        const n = f.n;
        const isMatch = q !== '' && n.name.toLowerCase().includes(q);
        const g = svg('g', { class: 'frame' + (f.ancestor ? ' ancestor' : '') + (isMatch ? ' match' : ''),
          'data-name': n.name, 'data-depth': n.depth, transform: `translate(${f.x.toFixed(2)},${n.depth * ROW})` });
        g.append(svg('rect', { width: Math.max(0.5, f.w - 0.5).toFixed(2), height: ROW - 1, rx: 1.5,
          fill: LP.loadColor(avgLoad(n), maxLoad) }));
        if (f.w > 24) {
          const chars = Math.floor((f.w - 6) / 6.7);
          const label = n.name.length > chars ? n.name.slice(0, Math.max(1, chars - 1)) + '…' : n.name;
          g.append(svg('text', { x: 3, y: ROW - 6, text: label }));
        }
        g.addEventListener('click', () => zoom(n));
        g.addEventListener('mousemove', (e) => LP.tip(e, n.name, [
          'real time: ' + LP.seconds(n.wall) + ' (' + LP.pct(100 * n.wall / (root.wall || 1)) + ')',
          'CPU time: ' + LP.seconds(n.cpu) + ' (' + LP.pct(100 * n.cpu / (root.cpu || 1)) + ')',
          'average load: ' + (n.wall > 0 ? avgLoad(n).toFixed(2) : '-')]));
        g.addEventListener('mouseleave', LP.hideTip);
        s.append(g);
        if (isMatch && !f.ancestor && !hasMatchedAncestor(n, q, zoomed)) matched += width(n);
      }
      host.classList.toggle('searching', q !== '');
      host.replaceChildren(s);
      crumbs.textContent = [...chain, zoomed].map((a) => a.name).join(' › ');
      const count = s.querySelectorAll('.frame.match').length;
      status.textContent = q === '' ? ''
        : count + (count === 1 ? ' frame matches: ' : ' frames match: ')
          + LP.pct(100 * matched / total) + ' of the ' + (mode === 'wall' ? 'real' : 'CPU') + ' time shown';
    }

    function hasMatchedAncestor(n, q, top) {
      for (let a = n.parent; a && a !== top.parent; a = a.parent) {
        if (a.name.toLowerCase().includes(q)) return true;
      }
      return false;
    }

    box.flame = { zoom, draw, root,
      search: (text) => { search.value = text; query = text; draw(); },
      setMode: (m) => { mode = m; radios.forEach((l) => { l.firstChild.checked = l.firstChild.value === m; }); draw(); } };
    // Drawn by the page once the box is in the document and has its width.
    return box;
  }

  function loadLegend(maxLoad) {
    const W = 260;
    const s = svg('svg', { width: W + 80, height: 28, viewBox: `0 0 ${W + 80} 28` });
    const top = Math.max(2, maxLoad);
    for (let i = 0; i < W; i += 4) {
      const load = Math.exp((i / W) * Math.log(top));
      s.append(svg('rect', { x: 40 + i, y: 2, width: 4, height: 10, fill: LP.loadColor(load, maxLoad) }));
    }
    s.append(svg('text', { x: 0, y: 11, text: 'load' }),
      svg('text', { x: 40, y: 25, text: '1 (serial)' }),
      svg('text', { x: 40 + W, y: 25, 'text-anchor': 'end', text: String(+top.toFixed(1)) }));
    return el('div', { class: 'legend' }, s,
      el('span', { text: 'colour = average load of the frame (CPU time / real time); width = real or CPU time' }));
  }

  return { graph };
})();
