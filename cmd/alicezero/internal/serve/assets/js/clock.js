// The Play view's two clocks. The server keeps the time: each answer
// carries both clocks as they stood when it was sent, and the page only
// counts the running one down between answers. When that count reaches
// zero the page asks the server, which alone decides that a flag fell.

// formatClock writes a time left as players read it: h:mm:ss, m:ss, and
// tenths under ten seconds.
export function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

// lowTime is when a clock turns red: a tenth of the base time, between 5
// and 20 seconds.
function lowTime(baseMS) { return Math.min(20000, Math.max(5000, baseMS / 10)); }

export class Clocks {
  // root holds #clock-white and #clock-black (each in its side's bar
  // beside the boards); onZero is called when the running clock reaches
  // zero on the page.
  constructor(root, onZero) {
    this.root = root;
    this.onZero = onZero;
    this.clock = null;
    this.at = 0; // performance.now() when this.clock arrived
    this.timer = null;
    this.asked = 0; // when onZero was last called
    this.els = {};
    for (const side of ['white', 'black']) {
      const el = root.querySelector(`#clock-${side}`);
      this.els[side] = { box: el, time: el.querySelector('.clock-time') };
    }
  }

  // show sets the clocks from the server's answer (null: an untimed game,
  // whose clocks are hidden).
  show(clock) {
    this.clock = clock;
    this.at = performance.now();
    for (const side of ['white', 'black']) this.els[side].box.classList.toggle('hidden', !clock);
    clearInterval(this.timer);
    this.timer = null;
    document.body.dataset.clock = clock ? clock.running || '' : '';
    if (!clock) return;
    if (clock.running) this.timer = setInterval(() => this.render(), 100);
    this.render();
  }

  // left is a side's time now, as the page reckons it.
  left(side) {
    const c = this.clock;
    const ms = side === 'white' ? c.white_ms : c.black_ms;
    return c.running === side ? ms - (performance.now() - this.at) : ms;
  }

  render() {
    const c = this.clock;
    if (!c) return;
    const low = lowTime(c.base_ms);
    for (const side of ['white', 'black']) {
      const ms = this.left(side);
      const e = this.els[side];
      e.time.textContent = formatClock(ms);
      e.box.classList.toggle('running', c.running === side);
      e.box.classList.toggle('low', ms <= low);
      e.box.classList.toggle('flagged', c.flag === side);
      e.box.dataset.ms = String(Math.max(0, Math.round(ms)));
    }
    // At zero, ask the server (at most four times a second): the answer
    // either ends the game on time or puts the clocks right.
    if (c.running && this.left(c.running) <= 0 && performance.now() - this.asked > 250) {
      this.asked = performance.now();
      this.onZero();
    }
  }
}
