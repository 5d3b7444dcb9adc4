// The analysis pane: a win/draw/loss bar from White's view, the
// evaluation, the principal variation and the top moves: the tree's with
// their share of the visits, or the alpha-beta's lines, best first.

function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// score writes an evaluation from White's view: a mate, else the
// expected score W-L as a signed number.
export function scoreText(info) {
  if (info.mate) {
    const whiteMates = (info.mate > 0) === (info.side === 'white');
    return `${whiteMates ? '' : '-'}M${Math.abs(info.mate)}`;
  }
  const v = info.white_value;
  return `${v >= 0 ? '+' : ''}${v.toFixed(2)}`;
}

// whiteWDL turns a side-to-move WDL into White's.
export function whiteWDL(info) {
  const [w, d, l] = info.wdl;
  return info.side === 'white' ? [w, d, l] : [l, d, w];
}

export function pvText(info, fullmove) {
  let n = fullmove || 1;
  let white = info.side === 'white';
  const parts = [];
  info.pv.forEach((m, i) => {
    if (white) parts.push(`${n}.`);
    else if (i === 0) parts.push(`${n}…`);
    parts.push(m.san);
    if (!white) n++;
    white = !white;
  });
  return parts.join(' ');
}

// renderAnalysis draws a search's report into box: info is the newest
// report (null: nothing to show, opts.idle says why); opts.fullmove
// numbers the line's moves, opts.caption names the position, and
// opts.end, once the search is over, says why it ended ({reason, text}
// as the server's done event has it). box.dataset.state tells tests and
// styles apart what is shown: "idle", "thinking" or "ended".
export function renderAnalysis(box, info, opts = {}) {
  box.replaceChildren();
  if (opts.caption) box.appendChild(h('div', 'an-caption muted', opts.caption));
  if (!info) {
    box.dataset.state = 'idle';
    delete box.dataset.end;
    box.appendChild(h('p', 'muted an-idle', opts.idle || 'The engine is not thinking.'));
    return;
  }
  const ended = info.final || Boolean(opts.end);
  box.dataset.state = ended ? 'ended' : 'thinking';
  if (opts.end) box.dataset.end = opts.end.reason;
  else delete box.dataset.end;
  const [w, d, l] = whiteWDL(info);
  const head = h('div', 'an-head');
  head.appendChild(h('span', 'score', scoreText(info)));
  // A search that went on in the tree of the move before counts its own
  // visits; the moves' column holds the tree's.
  const tree = info.tree_visits ? ` (${info.tree_visits.toLocaleString()} in the tree, kept from the last move)` : '';
  // The alpha-beta counts nodes, and its depth says how far it has seen.
  const lines = info.search === 'alphabeta';
  const count = lines ? `${info.nodes.toLocaleString()} nodes · depth ${info.depth}` : `${info.nodes.toLocaleString()} visits${tree}`;
  head.appendChild(h('span', 'muted', `${count} · ${(info.elapsed_ms / 1000).toFixed(1)} s${ended ? '' : ' · thinking…'}`));
  box.appendChild(head);
  if (opts.end && opts.end.text) box.appendChild(h('div', `an-end${opts.end.reason === 'error' ? ' error' : ''}`, `Search ended: ${opts.end.text}`));
  const bar = h('div', 'wdl');
  bar.title = `White wins ${(w * 100).toFixed(0)}% · draw ${(d * 100).toFixed(0)}% · Black wins ${(l * 100).toFixed(0)}%`;
  for (const [cls, v, label] of [['w', w, 'W'], ['d', d, 'D'], ['l', l, 'B']]) {
    const seg = h('div', `seg ${cls}`);
    seg.style.flexGrow = String(Math.max(v, 0.0001));
    if (v >= 0.12) seg.textContent = `${label} ${(v * 100).toFixed(0)}%`;
    bar.appendChild(seg);
  }
  box.appendChild(bar);
  if (info.pv.length) {
    const pv = h('div', 'pv');
    pv.appendChild(h('span', 'muted', 'Line: '));
    pv.appendChild(h('span', 'pv-moves', pvText(info, opts.fullmove)));
    box.appendChild(pv);
  }
  if (info.top.length && lines) {
    // The alpha-beta's lines, each searched exactly: its value and moves.
    const table = h('table', 'top lines');
    const thead = h('tr');
    for (const t of ['move', 'lands', 'Q', 'line']) thead.appendChild(h('th', '', t));
    table.appendChild(thead);
    for (const t of info.top) {
      const tr = h('tr');
      tr.appendChild(h('td', 'san', t.san));
      tr.appendChild(h('td', 'muted', t.to_board));
      tr.appendChild(h('td', 'num', t.mate ? `M${t.mate}` : t.q.toFixed(2)));
      tr.appendChild(h('td', 'pv-moves', pvText({ side: info.side, pv: t.line || [] }, opts.fullmove)));
      table.appendChild(tr);
    }
    box.appendChild(table);
  } else if (info.top.length) {
    const table = h('table', 'top');
    const thead = h('tr');
    for (const t of ['move', 'lands', 'visits', 'share', 'Q']) thead.appendChild(h('th', '', t));
    table.appendChild(thead);
    for (const t of info.top) {
      const tr = h('tr');
      tr.appendChild(h('td', 'san', t.san));
      tr.appendChild(h('td', 'muted', t.to_board));
      tr.appendChild(h('td', 'num', t.visits.toLocaleString()));
      const share = h('td', 'share');
      const sb = h('div', 'sharebar');
      sb.style.width = `${(t.share * 100).toFixed(1)}%`;
      share.appendChild(sb);
      share.appendChild(h('span', '', `${(t.share * 100).toFixed(0)}%`));
      tr.appendChild(share);
      // A move not visited yet has no evaluation of its own.
      tr.appendChild(h('td', 'num', t.mate ? `M${t.mate}` : t.visits > 0 ? t.q.toFixed(2) : '–'));
      table.appendChild(tr);
    }
    box.appendChild(table);
  }
}
