// The material balance beside each side: the men it has taken, grouped by
// the board they were taken on (in Alice Chess where a man falls is part
// of the story), and its lead in material.

import { NS, pieceId } from './pieces.js';

const VALUE = { q: 9, r: 5, b: 3, n: 3, p: 1 };

// taken lists the men side has taken in moves: [{letter, board}], the
// most valuable first.
export function taken(moves, side) {
  const white = side === 'white';
  return moves
    .filter((m) => m.captured && (m.captured === m.captured.toLowerCase()) === white)
    .map((m) => ({ letter: m.captured, board: m.captured_board }))
    .sort((a, b) => VALUE[b.letter.toLowerCase()] - VALUE[a.letter.toLowerCase()] || a.board.localeCompare(b.board));
}

// renderMaterial fills el with what side has taken in moves and its lead
// in material (pos.material, in pawns: promotions count). el's data-taken
// ("pB nA", the men and boards) and data-lead ("+2", "") tell tests what
// it shows.
export function renderMaterial(el, side, moves, pos) {
  el.replaceChildren();
  const men = taken(moves, side);
  const byBoard = new Map();
  for (const m of men) {
    if (!byBoard.has(m.board)) byBoard.set(m.board, []);
    byBoard.get(m.board).push(m.letter);
  }
  for (const board of [...byBoard.keys()].sort()) {
    const group = document.createElement('span');
    group.className = 'taken';
    group.dataset.board = board;
    group.title = `taken on board ${board}`;
    const chip = document.createElement('span');
    chip.className = 'taken-board';
    chip.textContent = board;
    group.appendChild(chip);
    for (const letter of byBoard.get(board)) {
      const svg = document.createElementNS(NS, 'svg');
      svg.setAttribute('viewBox', '0 0 1 1');
      svg.setAttribute('class', 'taken-man');
      const use = document.createElementNS(NS, 'use');
      use.setAttribute('href', `#${pieceId(letter)}`);
      use.setAttribute('width', '1');
      use.setAttribute('height', '1');
      svg.appendChild(use);
      group.appendChild(svg);
    }
    el.appendChild(group);
  }
  const mat = pos.material || { white: 0, black: 0 };
  const lead = side === 'white' ? mat.white - mat.black : mat.black - mat.white;
  if (lead > 0) el.appendChild(Object.assign(document.createElement('span'), { className: 'lead', textContent: `+${lead}` }));
  el.dataset.taken = men.map((m) => m.letter + m.board).join(' ');
  el.dataset.lead = lead > 0 ? `+${lead}` : '';
}
