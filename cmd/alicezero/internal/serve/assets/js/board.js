// TwinBoards draws Alice Chess's boards side by side (two, three in
// alice-3, of four files in alice-mini) and lets the player move by
// clicking or dragging. A man is picked by its square and its board, as
// in some variants a square holds men on several boards. A picked man's
// legal targets are marked on its own board (where it moves) and on each
// board where it may land; the last move is marked where it happened.
// A move is made by dropping the man where it lands: a null move on its
// square of another board, a stay on its own board. Dropped on its own
// board where it could land on several (alice-3's choice of board), the
// player is asked which.

import { NS, pieceId } from './pieces.js';

const FILES = 'abcdefgh';
const BOARDS = ['A', 'B', 'C'];

export function sqName(i) { return FILES[i & 7] + String((i >> 3) + 1); }
export function sqIndex(name) { return FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1); }

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// same reports whether two {board, sq} name the same square of one board.
function same(a, b) { return Boolean(a && b) && a.board === b.board && a.sq === b.sq; }

export class TwinBoards {
  // opts.interactive: whether moves can be made; opts.canMove(pos): whether
  // the player may move now; opts.onMove(move): called with the chosen
  // legal move (from the position's legal list); opts.choosePromotion(
  // moves, anchor) and opts.chooseBoard(moves, anchor): resolve to one of
  // several moves that differ in promotion or in landing board, or null.
  constructor(container, opts = {}) {
    this.opts = opts;
    this.flipped = false;
    this.pos = null;
    this.selected = null; // {board, sq} of the picked man
    this.drag = null;
    this.container = container;
    container.classList.add('twin');
    this.names = [];
    this.files = 0;
    this.layout(2, 8);
    this.onMoveListener = (ev) => this.pointerMove(ev);
    this.onUpListener = (ev) => this.pointerUp(ev);
  }

  // layout builds one SVG per board, again when a variant of another
  // shape comes.
  layout(count, files) {
    if (count === this.names.length && files === this.files) return;
    this.names = BOARDS.slice(0, count);
    this.files = files;
    this.svgs = {};
    this.container.replaceChildren();
    this.container.dataset.boards = String(count);
    this.container.dataset.files = String(files);
    for (const b of this.names) {
      const wrap = document.createElement('div');
      wrap.className = 'board-wrap';
      const label = document.createElement('div');
      label.className = 'board-label';
      label.textContent = `Board ${b}`;
      wrap.appendChild(label);
      const svg = el('svg', { viewBox: `-0.35 0 ${files + 0.35} 8.35`, class: 'board', 'data-board': b, role: 'img', 'aria-label': `Board ${b}` });
      wrap.appendChild(svg);
      this.container.appendChild(wrap);
      this.svgs[b] = svg;
      if (this.opts.interactive) svg.addEventListener('pointerdown', (ev) => this.pointerDown(ev));
    }
  }

  setFlipped(f) { this.flipped = f; this.render(); }

  // cancelSelection puts down the picked man.
  cancelSelection() {
    this.selected = null;
    this.cancelDrag();
    this.render();
  }
  flip() { this.setFlipped(!this.flipped); }

  setPosition(pos) {
    this.pos = pos;
    this.selected = null;
    this.cancelDrag();
    this.layout(pos.board_count || 2, pos.files || 8);
    this.render();
  }

  // xy returns a square's top-left corner in board coordinates.
  xy(i) {
    const f = i & 7, r = i >> 3;
    return this.flipped ? [this.files - 1 - f, r] : [f, 7 - r];
  }

  // legalFrom lists the moves of the man on at ({board, sq}).
  legalFrom(at) {
    if (!at || !this.pos || !this.pos.legal) return [];
    return this.pos.legal.filter((m) => m.from === at.sq && m.from_board === at.board);
  }

  // movesTo lists the picked man's moves that putting it on hit asks for:
  // those that land there, or on its own board, where it moves, all those
  // to that square (the landing board then still to choose).
  movesTo(hit) {
    const moves = this.legalFrom(this.selected).filter((m) => m.to === hit.sq);
    const landing = moves.filter((m) => m.to_board === hit.board);
    if (landing.length > 0 || hit.board !== this.selected.board) return landing;
    return moves.filter((m) => !m.null);
  }

  render() {
    for (const b of this.names) this.renderBoard(b);
  }

  renderBoard(b) {
    const svg = this.svgs[b];
    svg.replaceChildren();
    const pos = this.pos;
    const squares = el('g', { class: 'squares' }, svg);
    const marks = el('g', { class: 'marks' }, svg);
    const pieces = el('g', { class: 'pieces' }, svg);
    const dots = el('g', { class: 'dots' }, svg);
    const coords = el('g', { class: 'coords' }, svg);
    for (let i = 0; i < 64; i++) {
      if ((i & 7) >= this.files) continue;
      const [x, y] = this.xy(i);
      const light = ((i & 7) + (i >> 3)) % 2 === 1;
      el('rect', { x, y, width: 1, height: 1, class: `sq ${light ? 'light' : 'dark'}`, 'data-board': b, 'data-sq': sqName(i) }, squares);
    }
    for (let k = 0; k < this.files; k++) {
      const file = this.flipped ? this.files - 1 - k : k;
      el('text', { x: k + 0.5, y: 8.27, class: 'coord' }, coords).textContent = FILES[file];
    }
    for (let k = 0; k < 8; k++) {
      el('text', { x: -0.18, y: k + 0.58, class: 'coord' }, coords).textContent = String(this.flipped ? k + 1 : 8 - k);
    }
    if (!pos) return;
    const mark = (sq, cls) => {
      const [x, y] = this.xy(sqIndex(sq));
      el('rect', { x, y, width: 1, height: 1, class: `mark ${cls}` }, marks);
    };
    this.markLastMove(b, mark);
    const board = pos.boards[b];
    if (pos.check) {
      const i = board.indexOf(pos.side === 'white' ? 'K' : 'k');
      if (i >= 0) mark(sqName(i), 'check');
    }
    if (this.selected && this.selected.board === b) mark(this.selected.sq, 'selected');
    for (let i = 0; i < 64; i++) {
      const letter = board[i];
      if (letter === '.') continue;
      const [x, y] = this.xy(i);
      const dragged = this.drag && this.drag.started && same(this.drag.from, { board: b, sq: sqName(i) });
      el('use', { href: `#${pieceId(letter)}`, x, y, width: 1, height: 1, class: dragged ? 'piece dragging' : 'piece', 'data-piece': letter, 'data-sq': sqName(i) }, pieces);
    }
    if (this.selected) this.renderTargets(b, dots);
  }

  // markLastMove marks the last move on board b: where the man stood, the
  // square it moved to on that board (when it then left it) and where it
  // landed.
  markLastMove(b, mark) {
    const lm = this.pos.last_move;
    if (!lm) return;
    if (lm.from_board === b) {
      mark(lm.from, 'last-from');
      if (!lm.null && lm.to_board !== b) mark(lm.to, 'last-via');
    }
    if (lm.to_board === b) mark(lm.to, 'last-to');
  }

  // renderTargets marks the picked man's moves on board b: a dot (a ring
  // for a capture) where it moves on its own board, a frame where it
  // lands. A null move only lands; a stay is marked both ways.
  renderTargets(b, dots) {
    const seen = new Set(); // the promotions share their squares
    const once = (key) => !seen.has(key) && seen.add(key);
    for (const m of this.legalFrom(this.selected)) {
      const [x, y] = this.xy(sqIndex(m.to));
      if (m.from_board === b && !m.null && once(`via ${m.to}`)) {
        if (m.capture) el('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.44, class: 'target capture', 'data-target': m.to }, dots);
        else el('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.15, class: 'target', 'data-target': m.to }, dots);
      }
      if (m.to_board === b && once(`land ${m.to}`)) {
        el('rect', { x: x + 0.08, y: y + 0.08, width: 0.84, height: 0.84, rx: 0.12, class: m.null ? 'target land null' : 'target land', 'data-target': m.to }, dots);
      }
    }
  }

  squareAt(clientX, clientY) {
    const hit = document.elementFromPoint(clientX, clientY);
    const rect = hit && hit.closest ? hit.closest('rect[data-sq]') : null;
    if (rect && this.container.contains(rect)) return { board: rect.dataset.board, sq: rect.dataset.sq };
    // A piece, dot or mark covers the square: work it out from the point.
    for (const b of this.names) {
      const r = this.svgs[b].getBoundingClientRect();
      if (clientX < r.left || clientX > r.right || clientY < r.top || clientY > r.bottom) continue;
      const pt = new DOMPoint(clientX, clientY).matrixTransform(this.svgs[b].getScreenCTM().inverse());
      const x = Math.floor(pt.x), y = Math.floor(pt.y);
      if (x < 0 || x >= this.files || y < 0 || y > 7) return null;
      const f = this.flipped ? this.files - 1 - x : x;
      const rk = this.flipped ? y : 7 - y;
      return { board: b, sq: sqName(f + 8 * rk) };
    }
    return null;
  }

  movable() {
    return this.pos && this.opts.interactive && (!this.opts.canMove || this.opts.canMove(this.pos));
  }

  // ownMan returns the letter of the side to move's man on at, or null.
  ownMan(at) {
    const letter = this.pos.boards[at.board][sqIndex(at.sq)];
    if (!letter || letter === '.') return null;
    const white = letter === letter.toUpperCase();
    return white === (this.pos.side === 'white') ? letter : null;
  }

  pointerDown(ev) {
    if (ev.button !== 0 || !this.movable()) return;
    const hit = this.squareAt(ev.clientX, ev.clientY);
    if (!hit) return;
    ev.preventDefault();
    if (this.selected && !same(hit, this.selected) && this.movesTo(hit).length > 0) {
      this.tryMove(hit);
      return;
    }
    const letter = this.ownMan(hit);
    if (!letter || this.legalFrom(hit).length === 0) {
      // A square the picked man cannot go to, or a man of yours without
      // a move: the page says why.
      if (this.opts.onIllegal && this.selected && !letter) this.opts.onIllegal(this.selected, hit);
      else if (this.opts.onIllegal && letter) this.opts.onIllegal(hit, hit);
      this.selected = null;
      this.render();
      return;
    }
    const wasSelected = same(hit, this.selected);
    this.selected = hit;
    this.drag = { from: hit, letter, x0: ev.clientX, y0: ev.clientY, started: false, wasSelected };
    window.addEventListener('pointermove', this.onMoveListener);
    window.addEventListener('pointerup', this.onUpListener);
    this.render();
  }

  pointerMove(ev) {
    const d = this.drag;
    if (!d) return;
    if (!d.started) {
      if (Math.hypot(ev.clientX - d.x0, ev.clientY - d.y0) < 4) return;
      d.started = true;
      const size = this.svgs.A.getBoundingClientRect().width / (this.files + 0.35);
      const layer = document.getElementById('drag-layer');
      d.ghost = el('svg', { width: size, height: size, class: 'ghost' });
      el('use', { href: `#${pieceId(d.letter)}`, width: size, height: size }, d.ghost);
      layer.appendChild(d.ghost);
      d.size = size;
      this.render();
    }
    d.ghost.style.transform = `translate(${ev.clientX - d.size / 2}px, ${ev.clientY - d.size / 2}px)`;
  }

  pointerUp(ev) {
    const d = this.drag;
    this.cancelDrag();
    if (!d) return;
    const hit = this.squareAt(ev.clientX, ev.clientY);
    if (d.started) {
      if (hit && !same(hit, d.from) && this.movesTo(hit).length > 0) {
        this.tryMove(hit);
        return;
      }
      if (hit && !same(hit, d.from) && this.opts.onIllegal) this.opts.onIllegal(d.from, hit);
      this.render();
      return;
    }
    // A click on the picked man again puts it down.
    if (same(hit, d.from) && d.wasSelected) {
      this.selected = null;
      this.render();
    }
  }

  cancelDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.drag = null;
    window.removeEventListener('pointermove', this.onMoveListener);
    window.removeEventListener('pointerup', this.onUpListener);
  }

  // tryMove plays the picked man's move that putting it on hit asks for,
  // asking first for the landing board and the promotion where several
  // moves fit.
  async tryMove(hit) {
    let moves = this.movesTo(hit);
    this.selected = null;
    this.render();
    if (moves.length === 0) return;
    if (new Set(moves.map((m) => m.to_board)).size > 1) {
      const board = this.opts.chooseBoard ? await this.opts.chooseBoard(moves, this.svgs[hit.board]) : null;
      if (!board) return;
      moves = moves.filter((m) => m.to_board === board);
    }
    let move = moves[0];
    if (moves.length > 1 && this.opts.choosePromotion) {
      move = await this.opts.choosePromotion(moves, this.svgs[move.to_board]);
      if (!move) return;
    }
    if (this.opts.onMove) this.opts.onMove(move);
  }
}
