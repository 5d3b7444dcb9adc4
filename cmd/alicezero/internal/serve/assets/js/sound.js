// Sounds of the game, made with WebAudio (no sound files): a move, a
// capture, a check, the end of a game. A toggle turns them off, and the
// choice is remembered in the browser (localStorage).

const KEY = 'alicezero.sound';

let ctx = null;

// audio returns the page's AudioContext, made at the first sound (a
// browser lets a page make sounds only after a person's gesture).
function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

// tone plays a short note: frequency f (Hz) gliding to f2, for dur
// seconds, starting at offset, shaped by a fast attack and an
// exponential decay.
function tone(a, { f, f2 = f, dur = 0.09, offset = 0, gain = 0.25, type = 'sine' }) {
  const t = a.currentTime + offset;
  const osc = a.createOscillator();
  const g = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f, t);
  osc.frequency.exponentialRampToValueAtTime(f2, t + dur);
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(gain, t + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  osc.connect(g).connect(a.destination);
  osc.start(t);
  osc.stop(t + dur + 0.02);
}

// The notes of each sound: a wooden knock for a move, a sharper double
// knock for a capture, a bright ping for a check, a falling triad for
// the end of a game.
const SOUNDS = {
  move: [{ f: 520, f2: 300, dur: 0.07, type: 'triangle' }],
  capture: [{ f: 700, f2: 260, dur: 0.06, type: 'square', gain: 0.12 }, { f: 420, f2: 200, dur: 0.09, offset: 0.05, type: 'triangle' }],
  check: [{ f: 1320, f2: 1250, dur: 0.16, gain: 0.18 }, { f: 660, dur: 0.08, type: 'triangle', gain: 0.12 }],
  end: [{ f: 784, dur: 0.18, gain: 0.16 }, { f: 659, dur: 0.18, offset: 0.14, gain: 0.16 }, { f: 523, dur: 0.35, offset: 0.28, gain: 0.18 }],
};

export const sound = {
  enabled: localStorage.getItem(KEY) !== 'off',

  setEnabled(on) {
    this.enabled = on;
    localStorage.setItem(KEY, on ? 'on' : 'off');
  },

  // play makes the sound named kind, if sound is on. The page's body
  // counts what it played (data-sounds, data-last-sound), for its tests.
  play(kind) {
    if (!this.enabled || !SOUNDS[kind]) return;
    const b = document.body.dataset;
    b.sounds = String(Number(b.sounds || 0) + 1);
    b.lastSound = kind;
    try {
      const a = audio();
      if (a) for (const n of SOUNDS[kind]) tone(a, n);
    } catch (e) {
      // No audio output (a server without a sound card): silence.
    }
  },
};
