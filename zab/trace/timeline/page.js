// The timeline of a Zab run: one lane per peer, time downward. The data
// (lanes, rows, arrows, role bands) is laid out by package
// zab/trace/timeline; this script draws it and lets a reader step through.
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('data').textContent);
  const NS = 'http://www.w3.org/2000/svg';
  const ROW = 18, TOP = 14, LEFT = 78;
  const EV = D.events, N = EV.length;
  const scroll = document.getElementById('scroll');
  const svg = document.getElementById('svg');
  // The network's lane is narrow; the peers share the rest.
  const NETW = 96, peers = D.lanes.filter(l => l.id !== 0).length;
  const netW = D.lanes.length > peers ? NETW : 0;
  const RIGHT = 150; // room for the last lane's labels
  const LANEW = Math.max(120, Math.min(260, (scroll.clientWidth - LEFT - netW - RIGHT) / Math.max(1, peers)));
  const laneW = D.lanes.map(l => l.id === 0 ? NETW : LANEW);
  const laneX = [];
  laneW.reduce((x, w, i) => { laneX[i] = x + w / 2; return x + w; }, LEFT);
  const X = l => laneX[l];
  const Y = r => TOP + r * ROW;
  const COLOR = {
    VOTE: '#8e5fc4', CEPOCH: '#e08a1e', NEWEPOCH: '#e08a1e', ACKEPOCH: '#c46f00',
    NEWLEADER: '#a0522d', ACKLD: '#a0522d', COMMITLD: '#7b3f1d',
    PROPOSE: '#1f6fc4', ACK: '#16a5b8', COMMIT: '#2e9e44', PING: '#b5b5b5',
    REQUEST: '#d62785', SYNC: '#d62785', SYNCREPLY: '#d62785', PEERLOST: '#c62828'
  };
  const color = t => COLOR[t] || '#555';

  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, s, cls) {
    const t = el('text', { x: x, y: y, class: cls || '' }, parent);
    t.textContent = s;
    return t;
  }

  // ---- the picture ----
  const width = LEFT + laneW.reduce((a, b) => a + b, 0) + RIGHT;
  const height = TOP + D.rows * ROW + 20;
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  const defs = el('defs', {}, svg);
  const pat = el('pattern', { id: 'down', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
  el('rect', { width: 6, height: 6, fill: '#eee' }, pat);
  el('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#999', 'stroke-width': 2 }, pat);
  for (const t of Object.keys(COLOR).concat(['other'])) {
    const m = el('marker', { id: 'head-' + t, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: COLOR[t] || '#555' }, m);
  }
  const gRows = el('g', {}, svg), gLanes = el('g', {}, svg), gBands = el('g', {}, svg);
  const gArrows = el('g', { id: 'arrows' }, svg), gMarks = el('g', { id: 'marks' }, svg), gTop = el('g', {}, svg);
  const cursorBand = el('rect', { id: 'cursorband', x: 0, width: width, height: ROW }, gRows);

  // Row rules and the time of the first event of every fifth row.
  const rowTime = [];
  for (const e of EV) if (rowTime[e.r] === undefined) rowTime[e.r] = e.time.replace(/ \(.*\)$/, '');
  for (let r = 0; r < D.rows; r += 5) {
    el('line', { x1: LEFT, x2: width, y1: Y(r), y2: Y(r), class: 'rowrule' }, gRows);
    let t = rowTime[r];
    for (let k = r; t === undefined && k < r + 5 && k < D.rows; k++) t = rowTime[k];
    if (t !== undefined) text(gRows, 4, Y(r) + 3, t, 'axis');
  }

  // Lanes, with their names and states in the sticky head.
  const head = document.getElementById('lanehead');
  head.style.width = width + 'px';
  const laneState = [];
  D.lanes.forEach((l, i) => {
    const g = el('g', { class: 'lane', 'data-lane': l.id }, gLanes);
    el('line', { x1: X(i), x2: X(i), y1: 0, y2: height }, g);
    const div = document.createElement('div');
    div.className = 'lanename';
    div.style.left = X(i) + 'px';
    div.style.maxWidth = (laneW[i] - 6) + 'px';
    div.innerHTML = '<b></b><span class="chip none"></span><span class="del"></span>';
    div.querySelector('b').textContent = l.label;
    head.appendChild(div);
    laneState.push(div);
  });

  // Role bands.
  for (const b of D.bands) {
    const y0 = Y(b.r0) - ROW / 2, h = (b.r1 - b.r0 + 1) * ROW;
    const phase = b.phase && b.phase !== 'broadcast' && b.role !== 'LOOKING' ? ' phase' : '';
    el('rect', { x: X(b.l) - 4, y: y0, width: 8, height: h, class: 'band ' + b.role + phase }, gBands);
    if (b.label) text(gBands, X(b.l) + 8, y0 + 11, b.label, 'bandlabel ' + b.role);
  }

  // Arrows: one per message copy, coloured by type.
  const arrowEls = [];
  D.arrows.forEach((a, i) => {
    const fr = a.f >= 0 ? EV[a.f].r : EV[a.t].r - 0.7;
    let x1 = X(a.fl), y1 = Y(fr), x2 = X(a.tl), y2;
    if (a.k === 'lost') {
      x2 = x1 + 0.4 * (X(a.tl) - x1); y2 = Y(fr + 0.7);
    } else {
      y2 = Y(EV[a.t].r);
      if (EV[a.t].l !== a.tl) x2 = x1 + 0.4 * (X(a.tl) - x1); // lost at its sender
      if (a.f < 0) x1 = X(a.tl) + 0.4 * (X(a.fl) - X(a.tl));
    }
    const g = el('g', { class: 'arrow t-' + a.m + ' k-' + a.k, 'data-a': i }, gArrows);
    const head = a.k === 'recv' || a.k === 'orphan' ? 'url(#head-' + (COLOR[a.m] ? a.m : 'other') + ')' : '';
    el('line', { x1: x1, y1: y1, x2: x2, y2: y2, stroke: color(a.m), class: 'arrow k-' + a.k, 'marker-end': head }, g);
    el('line', { x1: x1, y1: y1, x2: x2, y2: y2, class: 'hit' }, g);
    if (a.k === 'drop' || a.k === 'lost') {
      const s = 4, c = a.k === 'drop' ? '#c62828' : '#888';
      if (a.k === 'drop') {
        el('path', { d: `M${x2 - s},${y2 - s}L${x2 + s},${y2 + s}M${x2 - s},${y2 + s}L${x2 + s},${y2 - s}`, stroke: c, 'stroke-width': 2 }, g);
      } else {
        text(g, x2 + 2, y2 + 3, '?', 'alabel');
      }
    }
    const lx = x1 + (x2 - x1) * 0.5, ly = y1 + (y2 - y1) * 0.5;
    const t = text(g, lx + 3, ly - 2, a.label.replace(/ \(.*\)$/, ''), 'alabel');
    t.setAttribute('fill', color(a.m));
    arrowEls.push(g);
  });

  // Markers: what happened on a lane other than sending and receiving.
  const markEls = new Array(N).fill(null);
  const SHAPES = {
    start: (g, x, y) => el('path', { d: `M${x - 6},${y - 5}L${x + 6},${y - 5}L${x},${y + 5}z`, fill: '#2e8b46' }, g),
    stop: (g, x, y) => el('rect', { x: x - 5, y: y - 5, width: 10, height: 10, fill: '#666' }, g),
    crash: (g, x, y) => el('path', { d: `M${x - 7},${y - 7}L${x + 7},${y + 7}M${x - 7},${y + 7}L${x + 7},${y - 7}`, stroke: '#c62828', 'stroke-width': 3.5 }, g),
    pause: (g, x, y) => el('path', { d: `M${x - 3},${y - 5}v10M${x + 3},${y - 5}v10`, stroke: '#555', 'stroke-width': 2.5 }, g),
    state: (g, x, y) => el('line', { x1: x - 7, x2: x + 7, y1: y, y2: y, stroke: '#333', 'stroke-width': 1.5 }, g),
    propose: (g, x, y) => el('path', { d: `M${x - 4},${y}h8M${x},${y - 4}v8`, stroke: '#1f6fc4', 'stroke-width': 1.5 }, g),
    proposal: (g, x, y) => el('path', { d: `M${x},${y - 6}L${x + 6},${y}L${x},${y + 6}L${x - 6},${y}z`, fill: '#1f6fc4' }, g),
    append: (g, x, y) => el('line', { x1: x - 4, x2: x + 4, y1: y, y2: y, stroke: '#1f6fc4', 'stroke-width': 2 }, g),
    commit: (g, x, y) => el('circle', { cx: x, cy: y, r: 5.5, fill: '#fff', stroke: '#2e9e44', 'stroke-width': 2.5 }, g),
    deliver: (g, x, y) => el('circle', { cx: x, cy: y, r: 3.2, fill: '#2e9e44' }, g),
    truncate: (g, x, y) => el('path', { d: `M${x - 6},${y}h12M${x - 6},${y - 3}v6M${x + 6},${y - 3}v6`, stroke: '#c62828', 'stroke-width': 2 }, g),
    snapshot: (g, x, y) => el('rect', { x: x - 4, y: y - 4, width: 8, height: 8, fill: '#fff', stroke: '#7b1fa2', 'stroke-width': 2 }, g),
    restore: (g, x, y) => el('rect', { x: x - 4, y: y - 4, width: 8, height: 8, fill: '#7b1fa2' }, g),
    peerlost: (g, x, y) => el('path', { d: `M${x + 2},${y - 7}L${x - 3},${y + 1}L${x + 1},${y + 1}L${x - 2},${y + 7}L${x + 4},${y - 1}L${x},${y - 1}z`, fill: '#c62828' }, g),
    net: (g, x, y) => el('path', { d: `M${x},${y - 6}L${x + 6},${y}L${x},${y + 6}L${x - 6},${y}z`, fill: '#e07b00' }, g),
    full: (g, x, y) => el('circle', { cx: x, cy: y, r: 5, fill: '#999' }, g),
    violation: (g, x, y) => el('circle', { cx: x, cy: y, r: 7, fill: '#c62828' }, g)
  };
  EV.forEach((e, i) => {
    const shape = SHAPES[e.k];
    if (!shape) return;
    const x = X(e.l), y = Y(e.r);
    const g = el('g', { class: 'mk mk-' + e.k, 'data-i': i }, gMarks);
    if (e.k === 'violation') {
      const v = el('g', { class: 'violation' }, gTop);
      el('rect', { x: LEFT - 4, y: y - ROW / 2, width: width - LEFT, height: ROW }, v);
    }
    if (e.k === 'net') el('line', { x1: LEFT, x2: width, y1: y, y2: y, class: 'netrule' }, gRows);
    shape(g, x, y).classList.add('shape');
    if (e.t && e.k !== 'state') text(g, x + 9, y + 3.5, e.k === 'violation' ? 'VIOLATION: ' + e.t : e.t);
    markEls[i] = g;
  });
  const cursorLine = el('line', { id: 'cursor', x1: LEFT - 6, x2: width, y1: 0, y2: 0 }, gTop);

  // ---- what is true at each event: roles and last deliveries ----
  const roleAt = [], delAt = [];
  {
    const role = D.lanes.map(() => ''), del = D.lanes.map(() => '');
    for (let i = 0; i < N; i++) {
      const e = EV[i];
      if (e.k === 'state' || e.k === 'start' || e.k === 'crash' || e.k === 'stop') {
        const b = D.bands.find(b => b.l === e.l && b.r0 === e.r);
        role[e.l] = e.k === 'stop' ? '' : (b ? b.role + '|' + b.label : role[e.l]);
      }
      if (e.k === 'deliver' || e.k === 'commit') del[e.l] = e.t.replace(/^commit /, '');
      if (e.k === 'restore') del[e.l] = e.t.replace(/^SetState /, '');
      roleAt.push(role.slice());
      delAt.push(del.slice());
    }
  }

  // ---- stepping ----
  const causes = new Set(D.causes || []);
  let cursor = -1;
  // arrowsEnding[i]: arrows drawn complete once event i is reached.
  const arrowEnd = D.arrows.map(a => Math.max(a.f, a.t));
  const arrowsByEnd = new Array(N).fill(null).map(() => []);
  arrowEnd.forEach((e, i) => { if (e >= 0) arrowsByEnd[e].push(i); });
  for (const a of D.arrows.keys()) {
    const ar = D.arrows[a];
    if (causes.has(ar.f) || causes.has(ar.t)) arrowEls[a].classList.add('cause');
  }
  for (const i of causes) if (markEls[i]) markEls[i].classList.add('cause');

  function setFuture(i, future) {
    if (markEls[i]) markEls[i].classList.toggle('future', future);
    for (const a of arrowsByEnd[i]) arrowEls[a].classList.toggle('future', future);
  }
  function setCursor(i, scrollTo) {
    i = Math.max(0, Math.min(N - 1, i));
    if (N === 0) return;
    if (cursor < 0) {
      for (let k = 0; k < N; k++) setFuture(k, k > i);
    } else if (i > cursor) {
      for (let k = cursor + 1; k <= i; k++) setFuture(k, false);
    } else {
      for (let k = i + 1; k <= cursor; k++) setFuture(k, true);
    }
    document.querySelectorAll('.current').forEach(n => n.classList.remove('current'));
    cursor = i;
    const e = EV[i];
    if (markEls[i]) markEls[i].classList.add('current');
    if (e.a >= 0) arrowEls[e.a].querySelector('line').classList.add('current');
    cursorLine.setAttribute('y1', Y(e.r));
    cursorLine.setAttribute('y2', Y(e.r));
    cursorBand.setAttribute('y', Y(e.r) - ROW / 2);
    showInfo(i);
    if (scrollTo) reveal(e.r);
  }
  function reveal(r) {
    const y = Y(r), top = scroll.scrollTop + 50, bottom = scroll.scrollTop + scroll.clientHeight - 30;
    if (y < top || y > bottom) scroll.scrollTop = y - scroll.clientHeight / 2;
  }
  function showInfo(i) {
    const e = EV[i];
    document.getElementById('pos').textContent = 'event ' + (i + 1) + ' / ' + N;
    document.getElementById('where').textContent = e.time + ' · ' + D.lanes[e.l].label;
    document.getElementById('info').textContent = e.d;
    const st = document.getElementById('state');
    st.innerHTML = '<tr><th>lane</th><th>role</th><th>delivered</th></tr>';
    D.lanes.forEach((l, k) => {
      if (l.id === 0) return;
      const [role, label] = (roleAt[i][k] || 'none|–').split('|');
      const tr = document.createElement('tr');
      tr.innerHTML = '<td></td><td><span class="chip"></span></td><td></td>';
      tr.cells[0].textContent = l.label;
      tr.querySelector('.chip').className = 'chip ' + role;
      tr.querySelector('.chip').textContent = label;
      tr.cells[2].textContent = delAt[i][k] || '–';
      st.appendChild(tr);
      const h = laneState[k];
      h.querySelector('.chip').className = 'chip ' + role;
      h.querySelector('.chip').textContent = label;
      h.querySelector('.del').textContent = delAt[i][k] ? 'delivered ' + delAt[i][k] : '';
    });
  }

  // ---- jumping by kind ----
  const isSend = (e, i) => e.a >= 0 && D.arrows[e.a].f === i;
  const KINDS = [
    ['any', 'any event', () => true],
    ['state', 'role change', e => e.k === 'state'],
    ['fault', 'crash, restart, pause', e => ['crash', 'start', 'stop', 'pause', 'peerlost'].includes(e.k)],
    ['net', 'partition or heal', e => e.k === 'net'],
    ['drop', 'lost message', (e, i) => e.a >= 0 && D.arrows[e.a].k === 'drop' && D.arrows[e.a].t === i],
    ['proposal', 'proposal (leader)', e => e.k === 'proposal'],
    ['commit', 'commit (leader)', e => e.k === 'commit'],
    ['deliver', 'delivery', e => e.k === 'deliver' || e.k === 'commit'],
    ['violation', 'violation', e => e.k === 'violation']
  ];
  for (const t of D.types) KINDS.push(['msg-' + t, t + ' sent', (e, i) => e.m === t && isSend(e, i)]);
  const kindSel = document.getElementById('kind');
  for (const [v, label] of KINDS) {
    const o = document.createElement('option');
    o.value = v; o.textContent = label;
    kindSel.appendChild(o);
  }
  function jump(dir) {
    const k = KINDS.find(k => k[0] === kindSel.value);
    for (let i = cursor + dir; i >= 0 && i < N; i += dir) {
      if (k[2](EV[i], i)) { setCursor(i, true); return true; }
    }
    return false;
  }

  // ---- filters: one per message type present ----
  const counts = {};
  for (const a of D.arrows) counts[a.m] = (counts[a.m] || 0) + 1;
  const filters = document.getElementById('filters');
  const hideRules = document.createElement('style');
  document.head.appendChild(hideRules);
  const hidden = new Set();
  function applyFilters() {
    hideRules.textContent = [...hidden].map(t => `#svg .t-${t} { display: none; }`).join('\n');
  }
  for (const t of D.types) {
    const lab = document.createElement('label');
    lab.innerHTML = '<input type="checkbox" checked><span class="sw"></span>';
    lab.querySelector('.sw').style.background = color(t);
    lab.appendChild(document.createTextNode(t + ' (' + (counts[t] || 0) + ')'));
    const cb = lab.querySelector('input');
    cb.dataset.type = t;
    cb.addEventListener('change', () => { cb.checked ? hidden.delete(t) : hidden.add(t); applyFilters(); });
    filters.appendChild(lab);
  }

  // ---- hovering and clicking ----
  const tip = document.getElementById('tip');
  function tipFor(target) {
    const a = target.closest('[data-a]'), m = target.closest('[data-i]');
    if (m) return EV[+m.dataset.i].d;
    if (a) {
      const ar = D.arrows[+a.dataset.a];
      const parts = [];
      if (ar.f >= 0) parts.push(EV[ar.f].d);
      if (ar.t >= 0) parts.push(EV[ar.t].d.split('\n')[0] + ' · ' + EV[ar.t].time);
      else parts.push('never received in this trace');
      return parts.join('\n—\n');
    }
    return null;
  }
  svg.addEventListener('mousemove', ev => {
    const s = tipFor(ev.target);
    if (!s) { tip.hidden = true; return; }
    tip.textContent = s;
    tip.hidden = false;
    const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
    const y = Math.min(ev.clientY + 14, window.innerHeight - tip.offsetHeight - 8);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  });
  svg.addEventListener('mouseleave', () => { tip.hidden = true; });
  svg.addEventListener('click', ev => {
    const m = ev.target.closest('[data-i]'), a = ev.target.closest('[data-a]');
    if (m) setCursor(+m.dataset.i, false);
    else if (a) { const ar = D.arrows[+a.dataset.a]; setCursor(ar.t >= 0 ? ar.t : ar.f, false); }
  });

  // ---- controls ----
  const on = (id, f) => document.getElementById(id).addEventListener('click', f);
  on('first', () => setCursor(0, true));
  on('prev', () => setCursor(cursor - 1, true));
  on('next', () => setCursor(cursor + 1, true));
  on('last', () => setCursor(N - 1, true));
  on('kprev', () => jump(-1));
  on('knext', () => jump(1));
  const vIdx = EV.findIndex(e => e.k === 'violation');
  const vBtn = document.getElementById('toviolation');
  if (vIdx < 0) vBtn.hidden = true; else on('toviolation', () => setCursor(vIdx, true));
  document.getElementById('labels').addEventListener('change', ev => svg.classList.toggle('nolabels', !ev.target.checked));
  document.addEventListener('keydown', ev => {
    if (ev.target.tagName === 'SELECT' || ev.target.tagName === 'INPUT') return;
    const keys = {
      ArrowRight: () => ev.shiftKey ? jump(1) : setCursor(cursor + 1, true),
      ArrowLeft: () => ev.shiftKey ? jump(-1) : setCursor(cursor - 1, true),
      Home: () => setCursor(0, true), End: () => setCursor(N - 1, true)
    };
    if (keys[ev.key]) { keys[ev.key](); ev.preventDefault(); }
  });

  // ---- head and side panel ----
  document.getElementById('title').textContent = D.title;
  const sum = document.getElementById('summary');
  sum.textContent = D.summary;
  sum.className = vIdx >= 0 ? 'bad' : 'good';
  document.getElementById('notes').textContent = (D.notes || []).join(' · ');
  if (vIdx >= 0 && (D.causes || []).some(c => c !== vIdx)) { // a liveness violation may name no cause
    const why = document.getElementById('why');
    why.innerHTML = '<b>Events that caused the violation</b> (click to step there):';
    for (const c of D.causes) {
      if (c === vIdx) continue;
      const a = document.createElement('a');
      a.textContent = EV[c].time + ' · ' + D.lanes[EV[c].l].label + ': ' + EV[c].d.split('\n')[0];
      a.addEventListener('click', () => setCursor(c, true));
      why.appendChild(a);
    }
  }
  legend();
  function legend() {
    const L = document.getElementById('legend');
    L.innerHTML = '<b>Legend</b>';
    const row = (draw, label) => {
      const d = document.createElement('div');
      const s = document.createElementNS(NS, 'svg');
      s.setAttribute('width', 30); s.setAttribute('height', 16);
      draw(s);
      d.appendChild(s);
      d.appendChild(document.createTextNode(label));
      L.appendChild(d);
    };
    for (const [role, label] of [['LOOKING', 'LOOKING (electing)'], ['FOLLOWING', 'FOLLOWING leader, epoch'], ['LEADING', 'LEADING epoch'], ['DOWN', 'down (crashed)']]) {
      row(s => el('rect', { x: 11, y: 0, width: 8, height: 16, class: 'band ' + role }, s), label);
    }
    row(s => el('rect', { x: 11, y: 0, width: 8, height: 16, class: 'band FOLLOWING phase' }, s), 'discovery / synchronization (paler)');
    const mk = [['start', 'start'], ['crash', 'crash'], ['stop', 'clean stop'], ['pause', 'paused process'],
      ['proposal', 'leader proposes (logs) a zxid'], ['commit', 'commit point (leader delivers)'], ['deliver', 'delivery with zxid'],
      ['append', 'follower logs entries'], ['truncate', 'log truncated'], ['snapshot', 'snapshot'], ['restore', 'SetState from a snapshot'],
      ['peerlost', 'connection to a peer lost'], ['net', 'partition / heal'], ['violation', 'invariant broken']];
    for (const [k, label] of mk) row(s => SHAPES[k](s, 15, 8), label);
    row(s => { el('line', { x1: 2, y1: 8, x2: 28, y2: 8, stroke: '#555', 'stroke-width': 1.3 }, s); }, 'message, sent → received');
    row(s => { el('line', { x1: 2, y1: 8, x2: 20, y2: 8, stroke: '#555', 'stroke-width': 1.3 }, s); el('path', { d: 'M17,5L23,11M17,11L23,5', stroke: '#c62828', 'stroke-width': 2 }, s); }, 'message lost (✕)');
    row(s => { el('line', { x1: 2, y1: 8, x2: 20, y2: 8, stroke: '#555', 'stroke-width': 1.3, 'stroke-dasharray': '4 3' }, s); }, 'never received in the trace');
  }

  // ---- errors, and what a test reads ----
  function showErrors() {
    const box = document.getElementById('errors');
    if (window.__errors.length) { box.hidden = false; box.textContent = 'Script errors:\n' + window.__errors.join('\n'); }
  }
  setCursor(D.open >= 0 ? D.open : N - 1, true);
  if (vIdx >= 0) reveal(EV[vIdx].r);
  showErrors();
  window.addEventListener('error', showErrors);
  window.timeline = {
    ready: true,
    get cursor() { return cursor; },
    setCursor: i => setCursor(i, true),
    jump: (kind, dir) => { kindSel.value = kind; return jump(dir); },
    data: D
  };
})();
