// The Play view: a game against the engine on the variant's boards, with the
// analysis pane and the move list.

import { api, Search } from './api.js';
import { TwinBoards } from './board.js';
import { renderAnalysis } from './analysis.js';
import { Clocks } from './clock.js';
import { toast, copyText, choosePromotion, chooseBoard, statusText, moveList, fenSide, fenFullmove } from './ui.js';

const SETTINGS_KEY = 'alicezero.play';

export class PlayView {
  constructor(info) {
    this.info = info;
    this.game = null;
    this.search = null;
    this.searchKind = null; // "play" or "analyse" while one runs
    this.settings = Object.assign({ colour: 'white', weights: 'default', visits: info.default_visits, seconds: 0, analyse: false, variant: 'alice',
      timeControl: 'none', customTC: '' },
      JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}'));
    this.boards = new TwinBoards(document.getElementById('play-boards'), {
      interactive: true,
      canMove: () => this.userToMove(),
      onMove: (m) => this.userMove(m),
      onIllegal: (from, to) => this.whyIllegal(from, to),
      choosePromotion,
      chooseBoard,
    });
    this.analysisBox = document.getElementById('play-analysis');
    // The page's clocks reaching zero asks the server, which rules on it.
    this.clocks = new Clocks(document.getElementById('play-clocks'), () => this.load());
    this.bindControls();
  }

  $(id) { return document.getElementById(id); }

  bindControls() {
    const s = this.settings;
    const colour = this.$('set-colour');
    colour.value = s.colour;
    colour.addEventListener('change', () => {
      s.colour = colour.value;
      this.boards.setFlipped(s.colour === 'black');
      this.clocks.setNames(this.clockNames());
      this.save();
      this.next();
    });
    const visits = this.$('set-visits');
    visits.max = String(this.info.max_visits);
    visits.value = String(s.visits);
    visits.addEventListener('change', () => { s.visits = Math.max(1, Math.min(this.info.max_visits, Number(visits.value) || 1)); visits.value = String(s.visits); this.save(); });
    const secs = this.$('set-time');
    secs.max = String(this.info.max_movetime_ms / 1000);
    secs.value = String(s.seconds);
    secs.addEventListener('change', () => { s.seconds = Math.max(0, Math.min(this.info.max_movetime_ms / 1000, Number(secs.value) || 0)); secs.value = String(s.seconds); this.save(); });
    const analyse = this.$('set-analyse');
    analyse.checked = s.analyse;
    analyse.addEventListener('change', () => { s.analyse = analyse.checked; this.save(); this.next(); });
    const variant = this.$('set-variant');
    for (const v of this.info.variants) variant.appendChild(new Option(v, v));
    variant.value = s.variant;
    variant.addEventListener('change', () => { s.variant = variant.value; this.save(); this.newGame(); });
    this.$('set-weights').addEventListener('change', (ev) => { s.weights = ev.target.value; this.save(); this.nameEngine(); });
    this.bindClock();
    this.$('btn-new').addEventListener('click', () => this.newGame());
    this.$('btn-undo').addEventListener('click', () => this.undo());
    this.$('btn-flip').addEventListener('click', () => this.boards.flip());
    this.$('btn-engine').addEventListener('click', () => this.engineButton());
    this.$('btn-copy-fen').addEventListener('click', () => this.game && copyText(this.game.fen, 'FEN'));
    this.$('btn-copy-pgn').addEventListener('click', async () => {
      try {
        const r = await api('GET', '/game/pgn');
        copyText(r.pgn, 'PGN');
      } catch (e) { toast(e.message, true); }
    });
    this.$('btn-paste').addEventListener('click', () => {
      this.$('paste-box').classList.remove('hidden');
      this.$('paste-error').textContent = '';
      this.$('paste-text').focus();
    });
    this.$('paste-cancel').addEventListener('click', () => this.$('paste-box').classList.add('hidden'));
    this.$('paste-load').addEventListener('click', () => this.paste());
    this.boards.setFlipped(s.colour === 'black');
    this.clocks.setNames(this.clockNames());
  }

  // bindClock sets up the time control choice: none, the server's presets,
  // or a custom "minutes+seconds".
  bindClock() {
    const s = this.settings;
    const sel = this.$('set-clock');
    const custom = this.$('set-clock-custom');
    const customOption = sel.querySelector('option[value=custom]');
    for (const tc of this.info.time_controls || []) sel.insertBefore(new Option(tc, tc), customOption);
    if (![...sel.options].some((o) => o.value === s.timeControl)) s.timeControl = 'none';
    sel.value = s.timeControl;
    custom.value = s.customTC;
    custom.classList.toggle('hidden', s.timeControl !== 'custom');
    sel.addEventListener('change', () => {
      s.timeControl = sel.value;
      custom.classList.toggle('hidden', s.timeControl !== 'custom');
      this.save();
      // A custom clock waits for one that reads (Enter in its field).
      if (s.timeControl === 'custom' && (!s.customTC || custom.getAttribute('aria-invalid') === 'true')) {
        custom.focus();
        return;
      }
      this.clockChanged();
    });
    custom.addEventListener('input', () => custom.removeAttribute('aria-invalid'));
    custom.addEventListener('change', () => {
      s.customTC = custom.value.trim();
      this.save();
      this.clockChanged();
    });
  }

  // timeControl is the chosen time control as the API reads it.
  timeControl() {
    const s = this.settings;
    return s.timeControl === 'custom' ? (s.customTC || 'none') : s.timeControl;
  }

  // clockChanged starts a game on the new clock when no move would be
  // lost by it (none played yet, or the game over); otherwise the clock
  // waits for the next new game.
  clockChanged() {
    if (!this.game || this.game.status !== 'ongoing') this.newGame();
    else if (this.game.ply === 0) this.newGame(this.game.start_fen);
    else toast(`The clock (${this.timeControl()}) applies from the next new game`);
  }

  clockNames() {
    const c = this.settings.colour;
    const engine = 'AliceZero';
    return {
      white: c === 'white' ? 'You' : c === 'black' ? engine : 'White',
      black: c === 'black' ? 'You' : c === 'white' ? engine : 'Black',
    };
  }

  save() { localStorage.setItem(SETTINGS_KEY, JSON.stringify(this.settings)); }

  // setWeights fills the engine list: the server's choices and each run's
  // checkpoints offered.
  setWeights(entries) {
    const sel = this.$('set-weights');
    sel.replaceChildren();
    for (const e of entries) sel.appendChild(new Option(e.label, e.id));
    if (!entries.some((e) => e.id === this.settings.weights)) this.settings.weights = entries[0].id;
    sel.value = this.settings.weights;
    this.nameEngine();
  }

  // namedEngine shows the engine a search's "engine" event names: its
  // short name in the header, its full description in the title.
  namedEngine(e) {
    const el = document.getElementById('engine-name');
    el.textContent = e.name || e.engine;
    el.title = e.engine;
  }

  // nameEngine shows the chosen engine in the header until a search names
  // the one that answers (its "engine" event).
  nameEngine() {
    const sel = this.$('set-weights');
    const label = sel.selectedOptions[0] ? sel.selectedOptions[0].textContent : '';
    sel.title = label; // the select may be too narrow to show it all
    document.getElementById('engine-name').textContent = label;
  }

  chooseWeights(id, label) {
    const sel = this.$('set-weights');
    if (![...sel.options].some((o) => o.value === id)) sel.appendChild(new Option(label, id));
    sel.value = id;
    this.settings.weights = id;
    this.save();
    this.nameEngine();
  }

  async load() {
    try {
      this.show(await api('GET', '/game'));
    } catch (e) { toast(e.message, true); }
  }

  engineColour() { return this.settings.colour === 'white' ? 'black' : this.settings.colour === 'black' ? 'white' : null; }

  engineToMove() { return this.game && this.game.status === 'ongoing' && this.game.side === this.engineColour(); }

  userToMove() { return this.game && this.game.status === 'ongoing' && !this.engineToMove() && this.searchKind !== 'play'; }

  // show draws a new state of the game and lets the engine move if it is
  // its turn.
  show(game, fromEngine = false) {
    if (!fromEngine) this.shownInfo = false;
    this.game = game;
    this.boards.setPosition(game);
    const side = fenSide(game.start_fen);
    moveList(this.$('play-moves'), game.moves, side, fenFullmove(game.start_fen), game.moves.length);
    document.body.dataset.ply = String(game.ply);
    document.body.dataset.variant = game.variant;
    this.clocks.show(game.clock || null);
    // With a clock the engine manages its own time.
    const timed = Boolean(game.clock);
    for (const id of ['set-visits', 'set-time']) {
      const el = this.$(id);
      el.disabled = timed;
      el.title = timed ? 'With a clock the engine spends its own time' : '';
    }
    this.showStatus();
    this.next();
  }

  showStatus(extra) {
    let text = this.game ? statusText(this.game) : '';
    const c = this.game && this.game.clock;
    if (c && !c.running && this.game.status === 'ongoing') text = `${text} · the clocks start with the first move`;
    if (this.searchKind === 'play') text = `${text} · AliceZero is thinking…`;
    if (extra) text = `${text} · ${extra}`;
    this.$('play-status').textContent = text;
    this.$('btn-engine').textContent = this.searchKind === 'play' ? 'Move now' : 'Engine move';
    document.body.dataset.thinking = this.searchKind === 'play' ? '1' : '0';
  }

  // next starts what the position calls for: the engine's move, an
  // analysis, or nothing.
  next() {
    if (!this.game) return;
    if (this.game.status !== 'ongoing') {
      this.stopSearch();
      this.showStatus();
      return;
    }
    if (this.engineToMove()) {
      if (this.searchKind !== 'play') this.startPlay();
      return;
    }
    if (this.settings.analyse) this.startAnalysis();
    else if (this.searchKind === 'analyse') {
      // Switched off while it thinks: its last report stays, ended.
      this.stopSearch();
      this.endPanel({ reason: 'stopped', text: 'stopped by you (“think on my moves” is off)' });
    } else {
      this.stopSearch();
      // The engine's report on its last move stays until the game changes
      // otherwise.
      if (!this.shownInfo) this.panel(null, { idle: 'Tick “think on my moves” to see the engine’s view of your position.' });
    }
  }

  stopSearch() {
    if (this.search) this.search.close();
    this.search = null;
    this.searchKind = null;
  }

  // panel shows a search's report in the analysis pane (see
  // renderAnalysis), remembered so that it can be marked ended.
  panel(info, opts) {
    this.panelInfo = info;
    this.panelOpts = opts;
    renderAnalysis(this.analysisBox, info, opts);
  }

  // endPanel marks the report shown as final, saying why its search
  // ended; with none shown, the pane says it.
  endPanel(end) {
    if (this.panelInfo) this.panel({ ...this.panelInfo, final: true }, { ...this.panelOpts, end });
    else this.panel(null, { idle: `The search ended: ${end.text}` });
  }

  limits() {
    const ms = Math.round(this.settings.seconds * 1000);
    return ms > 0 ? { movetime_ms: ms } : { visits: this.settings.visits };
  }

  // playLimits bound the engine's move: in a timed game its clock alone,
  // which the server passes to the engine's time manager.
  playLimits() { return this.game && this.game.clock ? {} : this.limits(); }

  startPlay() {
    this.stopSearch();
    this.searchKind = 'play';
    const fullmove = this.game.fullmove;
    const search = new Search({ kind: 'play', weights: this.settings.weights, ...this.playLimits() }, {
      engine: (e) => this.namedEngine(e),
      info: (info) => { if (this.search === search) this.panel(info, { fullmove }); },
      done: (d) => {
        if (this.search !== search) return;
        this.search = null;
        this.searchKind = null;
        if (d.info) this.panel(d.info, { fullmove, end: d.end });
        else if (d.end) this.endPanel(d.end);
        if (d.error) toast(`Engine: ${d.error}`, true);
        this.shownInfo = Boolean(d.info || d.end);
        if (d.game) this.show(d.game, true);
        else this.showStatus();
      },
      error: (e) => {
        if (this.search !== search) return;
        this.search = null;
        this.searchKind = null;
        toast(e.message, true);
        this.endPanel({ reason: 'error', text: e.message });
        this.showStatus();
      },
    });
    this.search = search;
    search.ready.catch((e) => {
      if (this.search !== search) return;
      this.search = null;
      this.searchKind = null;
      toast(e.message, true);
      this.showStatus();
    });
    this.showStatus();
  }

  startAnalysis() {
    this.stopSearch();
    this.searchKind = 'analyse';
    const fullmove = this.game.fullmove;
    const search = new Search({ kind: 'analyse', weights: this.settings.weights, movetime_ms: this.info.max_movetime_ms }, {
      engine: (e) => this.namedEngine(e),
      info: (info) => { if (this.search === search) this.panel(info, { fullmove }); },
      done: (d) => {
        if (this.search !== search) return;
        this.search = null;
        this.searchKind = null;
        if (d.info) this.panel(d.info, { fullmove, end: d.end });
        else this.endPanel(d.end || { reason: 'error', text: d.error || 'the engine found nothing' });
      },
      error: (e) => {
        if (this.search !== search) return;
        this.search = null;
        this.searchKind = null;
        this.endPanel({ reason: 'error', text: e.message });
      },
    });
    this.search = search;
    this.panel(null, { idle: 'The engine is starting on your position…' });
    search.ready.catch((e) => {
      if (this.search !== search) return;
      this.search = null;
      this.searchKind = null;
      toast(e.message, true);
      this.endPanel({ reason: 'error', text: e.message });
    });
  }

  // whyIllegal says why the man on from ({board, sq}) cannot go to to's
  // square (from itself: why it has no move), as the server explains it.
  async whyIllegal(from, to) {
    try {
      const q = new URLSearchParams({ from: from.sq, board: from.board, to: to.sq });
      const r = await api('GET', `/game/legal?${q}`);
      if (r.illegal) toast(`Illegal: ${r.illegal}`, true);
    } catch (e) { toast(e.message, true); }
  }

  async userMove(m) {
    try {
      this.show(await api('POST', '/game/move', { move: m.uci, version: this.game.version }));
    } catch (e) {
      toast(e.message, true);
      this.load();
    }
  }

  engineButton() {
    if (this.searchKind === 'play') {
      this.search.stop(); // the engine plays the best move found so far
      return;
    }
    if (this.game && this.game.status === 'ongoing') this.startPlay();
  }

  async undo() {
    if (!this.game || this.game.ply === 0) return;
    const thinking = this.searchKind === 'play';
    this.stopSearch();
    // Against the engine, take back the engine's reply and your move.
    const plies = !thinking && this.engineColour() && this.game.side !== this.engineColour() && this.game.ply >= 2 ? 2 : 1;
    try {
      this.show(await api('POST', '/game/undo', { plies }));
    } catch (e) { toast(e.message, true); }
  }

  // newGame starts a game on the chosen clock, from the start position or
  // from fen.
  async newGame(fen) {
    this.stopSearch();
    const body = { variant: this.settings.variant, time_control: this.timeControl() };
    if (fen) body.fen = fen;
    try {
      this.show(await api('POST', '/game/new', body));
    } catch (e) {
      if (e.message.includes('time_control')) this.$('set-clock-custom').setAttribute('aria-invalid', 'true');
      toast(e.message, true);
    }
  }

  async paste() {
    const text = this.$('paste-text').value.trim();
    if (!text) return;
    // A FEN starts with its eight ranks, seven slashes in one word; a '['
    // does not make a PGN, as FEN bracket groups ([Q|p]) have them too.
    const isPGN = !/^[^\s/]*(\/[^\s/]*){7}(\s|$)/.test(text);
    this.stopSearch();
    try {
      const body = { variant: this.settings.variant, time_control: this.timeControl(), ...(isPGN ? { pgn: text } : { fen: text }) };
      this.show(await api('POST', '/game/load', body));
      this.$('paste-box').classList.add('hidden');
      this.$('paste-text').value = '';
    } catch (e) {
      this.$('paste-error').textContent = e.message;
    }
  }

  // loadLine continues a reviewed game in the Play view.
  async loadLine(request) {
    this.stopSearch();
    try {
      this.show(await api('POST', '/game/load', { ...request, time_control: this.timeControl() }));
    } catch (e) { toast(e.message, true); }
  }
}
