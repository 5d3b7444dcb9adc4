// TwinBoards draws Alice Chess's two boards side by side and lets the
// player move by clicking or dragging. A picked piece's legal targets are
// marked on its own board (where it moves) and on the other board (where
// it lands, through the looking glass); the last move is marked on both.

import { NS, pieceId } from './pieces.js';

const FILES = 'abcdefgh';

export function sqName(i) { return FILES[i & 7] + String((i >> 3) + 1); }
export function sqIndex(name) { return FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1); }

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class TwinBoards {
  // opts.interactive: whether moves can be made; opts.canMove(pos): whether
  // the player may move now; opts.onMove(move): called with the chosen
  // legal move (from the position's legal list); opts.choosePromotion(
  // moves, anchor): resolves to one of several promotion moves, or null.
  constructor(container, opts = {}) {
    this.opts = opts;
    this.flipped = false;
    this.pos = null;
    this.selected = null; // square name of the picked piece
    this.drag = null;
    this.container = container;
    container.classList.add('twin');
    this.svgs = {};
    for (const b of ['A', 'B']) {
      const wrap = document.createElement('div');
      wrap.className = 'board-wrap';
      const label = document.createElement('div');
      label.className = 'board-label';
      label.textContent = `Board ${b}`;
      wrap.appendChild(label);
      const svg = el('svg', { viewBox: '-0.35 0 8.35 8.35', class: 'board', 'data-board': b, role: 'img', 'aria-label': `Board ${b}` });
      wrap.appendChild(svg);
      container.appendChild(wrap);
      this.svgs[b] = svg;
      if (opts.interactive) {
        svg.addEventListener('pointerdown', (ev) => this.pointerDown(ev));
      }
    }
    this.onMoveListener = (ev) => this.pointerMove(ev);
    this.onUpListener = (ev) => this.pointerUp(ev);
  }

  setFlipped(f) { this.flipped = f; this.render(); }
  flip() { this.setFlipped(!this.flipped); }

  setPosition(pos) {
    this.pos = pos;
    this.selected = null;
    this.cancelDrag();
    this.render();
  }

  // xy returns a square's top-left corner in board coordinates.
  xy(i) {
    const f = i & 7, r = i >> 3;
    return this.flipped ? [7 - f, r] : [f, 7 - r];
  }

  legalFrom(sq) {
    if (!this.pos || !this.pos.legal) return [];
    return this.pos.legal.filter((m) => m.from === sq);
  }

  render() {
    for (const b of ['A', 'B']) this.renderBoard(b);
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
      const [x, y] = this.xy(i);
      const light = ((i & 7) + (i >> 3)) % 2 === 1;
      el('rect', { x, y, width: 1, height: 1, class: `sq ${light ? 'light' : 'dark'}`, 'data-board': b, 'data-sq': sqName(i) }, squares);
    }
    for (let k = 0; k < 8; k++) {
      const file = this.flipped ? 7 - k : k;
      const rank = this.flipped ? k + 1 : 8 - k;
      el('text', { x: k + 0.5, y: 8.27, class: 'coord' }, coords).textContent = FILES[file];
      el('text', { x: -0.18, y: k + 0.58, class: 'coord' }, coords).textContent = String(rank);
    }
    if (!pos) return;
    const mark = (sq, cls) => {
      const [x, y] = this.xy(sqIndex(sq));
      el('rect', { x, y, width: 1, height: 1, class: `mark ${cls}` }, marks);
    };
    const lm = pos.last_move;
    if (lm) {
      if (lm.from_board === b) { mark(lm.from, 'last-from'); mark(lm.to, 'last-via'); }
      if (lm.to_board === b) mark(lm.to, 'last-to');
    }
    const board = pos.boards[b];
    if (pos.check) {
      const king = pos.side === 'white' ? 'K' : 'k';
      const i = board.indexOf(king);
      if (i >= 0) mark(sqName(i), 'check');
    }
    if (this.selected) {
      const i = sqIndex(this.selected);
      if (board[i] !== '.') mark(this.selected, 'selected');
    }
    for (let i = 0; i < 64; i++) {
      const letter = board[i];
      if (letter === '.') continue;
      const [x, y] = this.xy(i);
      const dragged = this.drag && this.drag.started && this.drag.sq === sqName(i);
      el('use', { href: `#${pieceId(letter)}`, x, y, width: 1, height: 1, class: dragged ? 'piece dragging' : 'piece', 'data-piece': letter, 'data-sq': sqName(i) }, pieces);
    }
    if (this.selected) {
      const seen = new Set(); // the promotions share their square
      for (const m of this.legalFrom(this.selected)) {
        if (seen.has(m.to)) continue;
        seen.add(m.to);
        const [x, y] = this.xy(sqIndex(m.to));
        if (m.from_board === b) {
          if (m.capture) el('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.44, class: 'target capture', 'data-target': m.to }, dots);
          else el('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.15, class: 'target', 'data-target': m.to }, dots);
        }
        if (m.to_board === b) {
          el('rect', { x: x + 0.08, y: y + 0.08, width: 0.84, height: 0.84, rx: 0.12, class: 'target land', 'data-target': m.to }, dots);
        }
      }
    }
  }

  squareAt(clientX, clientY) {
    const hit = document.elementFromPoint(clientX, clientY);
    const rect = hit && hit.closest ? hit.closest('rect[data-sq]') : null;
    if (rect && this.container.contains(rect)) return { board: rect.dataset.board, sq: rect.dataset.sq };
    // A piece, dot or mark covers the square: work it out from the point.
    for (const b of ['A', 'B']) {
      const r = this.svgs[b].getBoundingClientRect();
      if (clientX < r.left || clientX > r.right || clientY < r.top || clientY > r.bottom) continue;
      const pt = new DOMPoint(clientX, clientY).matrixTransform(this.svgs[b].getScreenCTM().inverse());
      const x = Math.floor(pt.x), y = Math.floor(pt.y);
      if (x < 0 || x > 7 || y < 0 || y > 7) return null;
      const f = this.flipped ? 7 - x : x;
      const rk = this.flipped ? y : 7 - y;
      return { board: b, sq: sqName(f + 8 * rk) };
    }
    return null;
  }

  movable() {
    return this.pos && this.opts.interactive && (!this.opts.canMove || this.opts.canMove(this.pos));
  }

  ownPiece(sq) {
    const i = sqIndex(sq);
    const letter = this.pos.boards.A[i] !== '.' ? this.pos.boards.A[i] : this.pos.boards.B[i];
    if (letter === '.') return null;
    const white = letter === letter.toUpperCase();
    return white === (this.pos.side === 'white') ? letter : null;
  }

  pointerDown(ev) {
    if (ev.button !== 0 || !this.movable()) return;
    const hit = this.squareAt(ev.clientX, ev.clientY);
    if (!hit) return;
    ev.preventDefault();
    if (this.selected && this.selected !== hit.sq && this.legalFrom(this.selected).some((m) => m.to === hit.sq)) {
      this.tryMove(this.selected, hit.sq);
      return;
    }
    const letter = this.ownPiece(hit.sq);
    if (!letter || this.legalFrom(hit.sq).length === 0) {
      this.selected = null;
      this.render();
      return;
    }
    const wasSelected = this.selected === hit.sq;
    this.selected = hit.sq;
    this.drag = { sq: hit.sq, letter, x0: ev.clientX, y0: ev.clientY, started: false, wasSelected };
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
      const size = this.svgs.A.getBoundingClientRect().width / 8.35;
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
      if (hit && hit.sq !== d.sq && this.legalFrom(d.sq).some((m) => m.to === hit.sq)) {
        this.tryMove(d.sq, hit.sq);
        return;
      }
      this.render();
      return;
    }
    // A click on the picked piece again puts it down.
    if (hit && hit.sq === d.sq && d.wasSelected) {
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

  async tryMove(from, to) {
    const moves = this.legalFrom(from).filter((m) => m.to === to);
    this.selected = null;
    this.render();
    if (moves.length === 0) return;
    let move = moves[0];
    if (moves.length > 1 && this.opts.choosePromotion) {
      const anchor = this.svgs[moves[0].to_board];
      move = await this.opts.choosePromotion(moves, anchor);
      if (!move) return;
    }
    if (this.opts.onMove) this.opts.onMove(move);
  }
}
