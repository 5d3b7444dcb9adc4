// Small helpers shared by the views: messages, copying, the promotion
// chooser.

import { NS, pieceId } from './pieces.js';

let toastTimer = null;

export function toast(message, isError = false) {
  const t = document.getElementById('toast');
  t.textContent = message;
  t.classList.toggle('error', isError);
  t.classList.remove('hidden');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.classList.add('hidden'), isError ? 6000 : 2500);
}

export async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    toast(`${what} copied`);
  } catch (e) {
    // No clipboard (an insecure origin, or permission refused): show it.
    window.prompt(`Copy the ${what}:`, text);
  }
}

// choosePromotion shows the four pieces a pawn may become over anchor and
// resolves to the chosen move, or null when dismissed.
export function choosePromotion(moves, anchor) {
  const box = document.getElementById('promo');
  box.replaceChildren();
  const white = moves[0].piece === 'P';
  return new Promise((resolve) => {
    const finish = (m) => {
      box.classList.add('hidden');
      document.removeEventListener('keydown', onKey);
      resolve(m);
    };
    const onKey = (ev) => { if (ev.key === 'Escape') finish(null); };
    document.addEventListener('keydown', onKey);
    for (const kind of ['q', 'r', 'b', 'n']) {
      const m = moves.find((x) => x.promotion === kind);
      if (!m) continue;
      const b = document.createElement('button');
      b.className = 'promo-choice';
      b.dataset.promotion = kind;
      b.title = { q: 'Queen', r: 'Rook', b: 'Bishop', n: 'Knight' }[kind];
      const svg = document.createElementNS(NS, 'svg');
      svg.setAttribute('viewBox', '0 0 1 1');
      const use = document.createElementNS(NS, 'use');
      use.setAttribute('href', `#${pieceId(white ? kind.toUpperCase() : kind)}`);
      use.setAttribute('width', '1');
      use.setAttribute('height', '1');
      svg.appendChild(use);
      b.appendChild(svg);
      b.addEventListener('click', () => finish(m));
      box.appendChild(b);
    }
    const cancel = document.createElement('button');
    cancel.className = 'promo-cancel';
    cancel.textContent = '×';
    cancel.title = 'Cancel';
    cancel.addEventListener('click', () => finish(null));
    box.appendChild(cancel);
    const r = anchor.getBoundingClientRect();
    box.style.left = `${window.scrollX + r.left + r.width / 2 - 130}px`;
    box.style.top = `${window.scrollY + r.top + r.height / 2 - 40}px`;
    box.classList.remove('hidden');
  });
}

export function statusText(pos) {
  const side = pos.side === 'white' ? 'White' : 'Black';
  switch (pos.status) {
    case 'ongoing':
      return pos.check ? `${side} to move, in check` : `${side} to move`;
    case 'checkmate':
      return `Checkmate: ${pos.side === 'white' ? 'Black' : 'White'} wins (${pos.result})`;
    case 'stalemate':
      return 'Stalemate: draw';
    case 'threefold':
      return 'Draw by threefold repetition';
    case 'fifty-move':
      return 'Draw by the fifty-move rule';
    case 'dead-position':
      return 'Draw: only the kings are left';
    case 'time-forfeit': {
      const flag = pos.clock && pos.clock.flag === 'black' ? 'Black' : 'White';
      const other = flag === 'White' ? 'Black' : 'White';
      return pos.result === '1/2-1/2' ? `${flag}'s time ran out, but ${other} has only a king: draw` : `${flag}'s time ran out: ${other} wins (${pos.result})`;
    }
    default:
      return `Game over (${pos.status}): ${pos.result}`;
  }
}

// moveList fills an <ol> with a game's moves, two to an item; onPick(i),
// when given, is called with the ply (1-based) of a clicked move; current
// is the ply to highlight.
export function moveList(ol, moves, startSide, startFullmove, current, onPick) {
  ol.replaceChildren();
  let li = null;
  let n = startFullmove || 1;
  let white = startSide !== 'black';
  moves.forEach((m, i) => {
    if (white || !li) {
      li = document.createElement('li');
      li.value = n;
      if (!white) li.appendChild(Object.assign(document.createElement('span'), { className: 'move empty', textContent: '…' }));
      ol.appendChild(li);
    }
    const span = document.createElement('span');
    span.className = `move${i + 1 === current ? ' current' : ''}`;
    span.textContent = `${m.san}`;
    const board = document.createElement('sub');
    board.textContent = m.to_board;
    span.appendChild(board);
    span.dataset.ply = String(i + 1);
    if (onPick) span.addEventListener('click', () => onPick(i + 1));
    li.appendChild(span);
    if (!white) n++;
    white = !white;
  });
  const cur = ol.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

// fenSide and fenFullmove read a FEN's side to move and move number.
export function fenSide(fen) { return (fen.split(' ')[1] || 'w') === 'b' ? 'black' : 'white'; }
export function fenFullmove(fen) { return Number(fen.split(' ')[5]) || 1; }
