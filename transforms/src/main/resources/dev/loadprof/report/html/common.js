'use strict';
window.loadprofScriptStartMs = performance.now();
// Shared helpers of every loadprof report page. Untrusted text (symbols, comms, run ids) only
// ever reaches the DOM through textContent or setAttribute, never through HTML parsing.
const LP = (() => {
  const SVG_NS = 'http://www.w3.org/2000/svg';

  function apply(e, props, kids) {
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v == null) continue;
        if (k === 'text') e.textContent = v;
        else if (k === 'class') e.setAttribute('class', v);
        else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, String(v));
      }
    }
    for (const c of kids) if (c != null) e.append(c);
    return e;
  }

  /** An HTML element; string children become text nodes. */
  function el(tag, props, ...kids) {
    return apply(document.createElement(tag), props, kids);
  }

  function svg(tag, props, ...kids) {
    return apply(document.createElementNS(SVG_NS, tag), props, kids);
  }

  function data() {
    return JSON.parse(document.getElementById('loadprof-data').textContent);
  }

  function seconds(ns) {
    if (ns == null) return '-';
    const s = ns / 1e9;
    if (Math.abs(s) >= 1) return s.toFixed(3) + ' s';
    if (Math.abs(s) >= 1e-3) return (s * 1e3).toFixed(2) + ' ms';
    return (s * 1e6).toFixed(1) + ' µs';
  }

  /**
   * One unit for a set of durations (a legend, an axis, a tooltip): a formatter that prints each
   * in the unit of the largest of them, so "651.94 ms" and "1.775 s" become "0.652 s, 1.775 s".
   */
  function durationScale(values) {
    const top = Math.max(0, ...values.filter((v) => v != null).map((v) => Math.abs(v)));
    const [div, unit, digits] = top >= 1e9 ? [1e9, ' s', 3] : top >= 1e6 ? [1e6, ' ms', 2] : [1e3, ' µs', 1];
    return (ns) => (ns == null ? '-' : (ns / div).toFixed(digits) + unit);
  }

  /** A signed duration: "+1.23 ms", "−4.00 ms". */
  function signedSeconds(ns) {
    return ns == null ? '-' : (ns > 0 ? '+' : ns < 0 ? '−' : '±') + seconds(Math.abs(ns));
  }

  function pct(x, digits = 2) {
    return x == null ? '-' : x.toFixed(digits) + '%';
  }

  function fixed(x, digits = 2) {
    return x == null ? '-' : x.toFixed(digits);
  }

  /**
   * Colour of an average load: load 1 (serial) is hot red, the process's highest load cool blue,
   * on a log scale so that the low loads, where real time is lost, are told apart.
   */
  function loadColor(load, maxLoad) {
    const top = Math.max(2, maxLoad);
    const t = load <= 1 ? 0 : Math.min(1, Math.log(load) / Math.log(top));
    const hue = 4 + t * 206;
    const light = 58 + 8 * Math.sin(t * Math.PI);
    return 'hsl(' + hue.toFixed(0) + ',72%,' + light.toFixed(0) + '%)';
  }

  let tipEl = null;
  /** One floating tooltip per page: a title line and label/value lines, as text. */
  function tip(event, title, lines) {
    if (!tipEl) {
      tipEl = el('div', { class: 'tip', role: 'tooltip', id: 'lp-tip' });
      document.body.append(tipEl);
    }
    tipEl.replaceChildren(el('div', { class: 't', text: title }),
      ...lines.map((l) => el('div', { text: l })));
    tipEl.style.display = 'block';
    const w = tipEl.offsetWidth;
    const h = tipEl.offsetHeight;
    const x = Math.min(event.clientX + 14, window.innerWidth - w - 8);
    const y = event.clientY + 16 + h > window.innerHeight ? event.clientY - h - 10 : event.clientY + 16;
    tipEl.style.left = Math.max(4, x) + 'px';
    tipEl.style.top = Math.max(4, y) + 'px';
  }

  function hideTip() {
    if (tipEl) tipEl.style.display = 'none';
  }

  /**
   * A table sortable by clicking a header. columns: {label, get(row), fmt(value) or show(row)
   * for the cell's text, text: bool, cls, title}; initial: index of the column sorted first (descending for numbers unless ascending);
   * rowProps(row): extra attributes of its tr (e.g. an id to link to).
   */
  function table(columns, rows, initial, onRowClick, ascending, rowProps) {
    let sortCol = initial;
    let desc = !columns[initial].text && !ascending;
    const tbody = el('tbody');
    const heads = columns.map((c, i) => el('th', {
      class: c.text ? 'text' : null, scope: 'col', title: c.title,
      onclick: () => { if (sortCol === i) desc = !desc; else { sortCol = i; desc = !c.text; } draw(); },
    }, c.label));
    function draw() {
      const col = columns[sortCol];
      const sorted = rows.slice().sort((a, b) => {
        const x = col.get(a);
        const y = col.get(b);
        const r = col.text ? String(x).localeCompare(String(y))
          : (x == null ? -Infinity : x) - (y == null ? -Infinity : y);
        return desc ? -r : r;
      });
      heads.forEach((h, i) => {
        if (i === sortCol) h.setAttribute('aria-sort', desc ? 'descending' : 'ascending');
        else h.removeAttribute('aria-sort');
      });
      tbody.replaceChildren(...sorted.map((r) => {
        const props = Object.assign({}, rowProps ? rowProps(r) : null,
          onRowClick ? { class: 'clickable', onclick: () => onRowClick(r, tr) } : null);
        const tr = el('tr', props,
          ...columns.map((c) => el('td', { class: c.cls || (c.text ? 'text' : null) },
            c.show ? c.show(r) : (c.fmt || String)(c.get(r)))));
        return tr;
      }));
    }
    draw();
    return el('div', { class: 'tablewrap' },
      el('table', null, el('thead', null, el('tr', null, ...heads)), tbody));
  }

  function figure(label, value, title) {
    return el('div', { class: 'fig', title },
      el('div', { class: 'label', text: label }), el('div', { class: 'value', text: value }));
  }

  function card(title, ...kids) {
    return el('section', { class: 'card' }, el('h2', { text: title }), ...kids);
  }

  return { el, svg, data, seconds, durationScale, signedSeconds, pct, fixed, loadColor, tip, hideTip, table, figure, card };
})();
