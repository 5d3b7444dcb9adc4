// Small helpers shared by the views: messages, copying, the promotion
// and landing-board choosers.

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

// choose shows a row of buttons over anchor, each made by fill(button,
// choice), and resolves to the choice clicked, or null when dismissed
// (Escape or ×). The promotion and landing-board choosers share it.
function choose(anchor, label, choices, fill) {
  const box = document.getElementById('promo');
  box.replaceChildren();
  box.setAttribute('aria-label', label);
  return new Promise((resolve) => {
    const finish = (c) => {
      box.classList.add('hidden');
      document.removeEventListener('keydown', onKey);
      resolve(c);
    };
    const onKey = (ev) => { if (ev.key === 'Escape') finish(null); };
    document.addEventListener('keydown', onKey);
    for (const c of choices) {
      const b = document.createElement('button');
      b.className = 'promo-choice';
      fill(b, c);
      b.addEventListener('click', () => finish(c));
      box.appendChild(b);
    }
    const cancel = document.createElement('button');
    cancel.className = 'promo-cancel';
    cancel.textContent = '×';
    cancel.title = 'Cancel';
    cancel.addEventListener('click', () => finish(null));
    box.appendChild(cancel);
    // Centred over the anchor, measured once shown: the box is as wide as
    // its choices.
    box.classList.remove('hidden');
    const r = anchor.getBoundingClientRect();
    box.style.left = `${window.scrollX + r.left + (r.width - box.offsetWidth) / 2}px`;
    box.style.top = `${window.scrollY + r.top + (r.height - box.offsetHeight) / 2}px`;
  });
}

// choosePromotion shows the four pieces a pawn may become over anchor and
// resolves to the chosen move, or null when dismissed.
export function choosePromotion(moves, anchor) {
  const white = moves[0].piece === 'P';
  const choices = ['q', 'r', 'b', 'n'].map((kind) => moves.find((m) => m.promotion === kind)).filter(Boolean);
  return choose(anchor, 'Promote to', choices, (b, m) => {
    b.dataset.promotion = m.promotion;
    b.title = { q: 'Queen', r: 'Rook', b: 'Bishop', n: 'Knight' }[m.promotion];
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 1 1');
    const use = document.createElementNS(NS, 'use');
    use.setAttribute('href', `#${pieceId(white ? m.promotion.toUpperCase() : m.promotion)}`);
    use.setAttribute('width', '1');
    use.setAttribute('height', '1');
    svg.appendChild(use);
    b.appendChild(svg);
  });
}

// chooseBoard asks on which board a man lands, where one from/to pair
// may land on several (alice-3's choice, alice-stone's stay or transfer),
// and resolves to the board's letter, or null when dismissed.
export function chooseBoard(moves, anchor) {
  const boards = [...new Set(moves.map((m) => m.to_board))].sort();
  return choose(anchor, 'Land on board', boards, (b, board) => {
    b.dataset.board = board;
    b.classList.add('board-choice');
    const stay = moves.some((m) => m.to_board === board && m.from_board === board);
    b.title = stay ? `Stay on board ${board}` : `Land on board ${board}`;
    b.textContent = board;
  });
}

export function statusText(pos) {
  const side = pos.side === 'white' ? 'White' : 'Black';
  switch (pos.status) {
    case 'ongoing':
      return pos.check ? `${side} to move, in check` : `${side} to move`;
    case 'checkmate':
      // A review's positions carry no result: the side to move lost.
      return `Checkmate: ${pos.side === 'white' ? 'Black' : 'White'} wins (${pos.result || (pos.side === 'white' ? '0-1' : '1-0')})`;
    case 'stalemate':
      return 'Stalemate: draw';
    case 'threefold':
      return 'Draw by threefold repetition';
    case 'fifty-move':
      return 'Draw by the fifty-move rule';
    case 'dead-position':
      return 'Draw: only the kings are left';
    case 'resigned':
      return pos.result === '1-0' ? 'Black resigned: White wins (1-0)' : 'White resigned: Black wins (0-1)';
    case 'draw-agreed':
      return 'Draw agreed (1/2-1/2)';
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
    // The landing board, unless the SAN already names it (alice-3's e4/C).
    if (!m.san.endsWith(`/${m.to_board}`)) {
      const board = document.createElement('sub');
      board.textContent = m.to_board;
      span.appendChild(board);
    }
    span.dataset.ply = String(i + 1);
    if (onPick) span.addEventListener('click', () => onPick(i + 1));
    li.appendChild(span);
    if (!white) n++;
    white = !white;
  });
  scrollToCurrent(ol);
}

// scrollToCurrent scrolls a move list, not the page, to its current
// move: the boards stay in view after a move. A hidden list cannot be
// measured; showing its view scrolls it.
export function scrollToCurrent(ol) {
  const cur = ol.querySelector('.current');
  if (!cur || ol.offsetParent === null) return;
  const r = cur.getBoundingClientRect();
  const box = ol.getBoundingClientRect();
  if (r.top < box.top) ol.scrollTop -= box.top - r.top;
  else if (r.bottom > box.bottom) ol.scrollTop += r.bottom - box.bottom;
}

// typing reports whether a key event goes to a field being typed in,
// not to the page's keys.
export function typing(ev) {
  return Boolean(ev.target.closest && ev.target.closest('textarea, input, select')) || ev.ctrlKey || ev.metaKey || ev.altKey;
}

// fenSide and fenFullmove read a FEN's side to move and move number.
export function fenSide(fen) { return (fen.split(' ')[1] || 'w') === 'b' ? 'black' : 'white'; }
export function fenFullmove(fen) { return Number(fen.split(' ')[5]) || 1; }
