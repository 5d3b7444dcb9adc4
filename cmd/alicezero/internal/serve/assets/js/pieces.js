// The chessmen, drawn for AliceZero as simple silhouettes on a 45×45
// grid: one <symbol> per piece ("p-wK", "p-bN", …) that boards <use>.

const NS = 'http://www.w3.org/2000/svg';

// Each kind: filled shapes (body) and detail strokes drawn over them.
const SHAPES = {
  P: {
    body: [
      'M16 22 H29 L27.5 25 C27.5 29.5 30.5 33 33 35.5 V38.5 H12 V35.5 C14.5 33 17.5 29.5 17.5 25 Z',
      'circle 22.5 15 6',
    ],
    lines: [],
  },
  R: {
    body: [
      'M11 38.5 H34 V35 H31.5 L30.5 22 L32.5 19 V11 H28 V14.5 H25 V11 H20 V14.5 H17 V11 H12.5 V19 L14.5 22 L13.5 35 H11 Z',
    ],
    lines: ['M12.5 19 H32.5', 'M14.5 22 H30.5', 'M13.5 35 H31.5'],
  },
  N: {
    body: [
      'M14 38.5 H34 C34.5 29 33.5 21 30 15.5 C27.5 11.5 24.5 9.5 22 9 L21 5.5 L18.5 9 C15.5 10.5 12.5 13.5 11 17 L8.5 22.5 C8 25 10 26.5 12.5 25.5 L15.5 23.5 C17 23.5 18.5 22.5 19.5 21.5 C19.5 26 16.5 29.5 14 32.5 Z',
    ],
    lines: ['M30 15.5 C31.5 22 31.5 30 31 38', 'circle 17 15 1.3', 'M10.5 22.5 L12 22'],
  },
  B: {
    body: [
      'M12 38.5 H33 L31 34.5 H14 Z',
      'M16 34.5 H29 V31 H16 Z',
      'M22.5 11 C15.5 16 14 23.5 17 31 H28 C31 23.5 29.5 16 22.5 11 Z',
      'circle 22.5 8.5 2.6',
    ],
    lines: ['M24.5 16.5 L20.5 22.5', 'M20 25.5 H25'],
  },
  Q: {
    body: [
      'M12 38.5 H33 L31 34.5 H14 Z',
      'M14 34.5 L10 15.5 L16.5 26 L16.5 12.5 L20.5 25 L22.5 10.5 L24.5 25 L28.5 12.5 L28.5 26 L35 15.5 L31 34.5 Z',
      'circle 10 14 2.3', 'circle 16.5 11 2.3', 'circle 22.5 9 2.3', 'circle 28.5 11 2.3', 'circle 35 14 2.3',
    ],
    lines: ['M14.5 31 H30.5'],
  },
  K: {
    body: [
      'M12 38.5 H33 L31.5 34.5 H13.5 Z',
      'M13.5 34.5 C9.5 28.5 9 22.5 13 19.5 C16.5 17 20.5 19.5 22.5 24 C24.5 19.5 28.5 17 32 19.5 C36 22.5 35.5 28.5 31.5 34.5 Z',
      'M22.5 24 C20 19.5 20.5 15.5 22.5 14 C24.5 15.5 25 19.5 22.5 24 Z',
    ],
    lines: ['M14 30.5 H31'],
    // The cross stands above the crown, in the outline's colour.
    cross: ['M22.5 5 V13', 'M19 8.5 H26'],
  },
};

const COLOURS = {
  w: { fill: '#fbfbf8', stroke: '#1b1b1b', detail: '#1b1b1b' },
  b: { fill: '#262626', stroke: '#000000', detail: '#e8e8e8' },
};

function shape(spec, attrs) {
  let el;
  if (spec.startsWith('circle ')) {
    const [cx, cy, r] = spec.slice(7).split(' ');
    el = document.createElementNS(NS, 'circle');
    el.setAttribute('cx', cx);
    el.setAttribute('cy', cy);
    el.setAttribute('r', r);
  } else {
    el = document.createElementNS(NS, 'path');
    el.setAttribute('d', spec);
  }
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

// installPieces adds the piece symbols to the <svg> element defs.
export function installPieces(defs) {
  for (const [colour, c] of Object.entries(COLOURS)) {
    for (const [kind, s] of Object.entries(SHAPES)) {
      const sym = document.createElementNS(NS, 'symbol');
      sym.setAttribute('id', `p-${colour}${kind}`);
      sym.setAttribute('viewBox', '0 0 45 45');
      const g = document.createElementNS(NS, 'g');
      g.setAttribute('stroke-linejoin', 'round');
      g.setAttribute('stroke-linecap', 'round');
      for (const b of s.body) {
        g.appendChild(shape(b, { fill: c.fill, stroke: c.stroke, 'stroke-width': '1.5' }));
      }
      for (const l of s.lines) {
        g.appendChild(shape(l, l.startsWith('circle ')
          ? { fill: c.detail, stroke: 'none' }
          : { fill: 'none', stroke: c.detail, 'stroke-width': '1.3' }));
      }
      for (const l of s.cross || []) {
        g.appendChild(shape(l, { fill: 'none', stroke: c.stroke, 'stroke-width': '2.4' }));
      }
      sym.appendChild(g);
      defs.appendChild(sym);
    }
  }
}

// pieceId returns the symbol id of a FEN letter: "P" → "p-wP", "n" → "p-bN".
export function pieceId(letter) {
  const colour = letter === letter.toUpperCase() ? 'w' : 'b';
  return `p-${colour}${letter.toUpperCase()}`;
}

export { NS };
