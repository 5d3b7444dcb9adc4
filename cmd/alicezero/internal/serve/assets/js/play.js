// The Play view: a game against the engine on the variant's boards, with
// a bar beside the boards for each side (its name, the men it has taken,
// its clock), the analysis pane and the move list, whose moves show the
// positions of the game so far.

import { api, Search } from './api.js';
import { TwinBoards } from './board.js';
import { renderAnalysis } from './analysis.js';
import { Clocks } from './clock.js';
import { renderMaterial } from './material.js';
import { sound } from './sound.js';
import { toast, copyText, choosePromotion, chooseBoard, statusText, moveList, fenSide, fenFullmove, typing } from './ui.js';

const SETTINGS_KEY = 'alicezero.play';

export class PlayView {
  // onReview(pgn) opens a game in the Review view.
  constructor(info, onReview) {
    this.info = info;
    this.onReview = onReview;
    this.game = null;
    this.search = null;
    this.searchKind = null; // "play", "analyse" or "draw" while one runs
    this.viewPly = null; // the ply shown when looking back; null: the game's
    this.viewTarget = null; // the ply asked for last, shown once fetched
    this.viewSeq = 0; // counts the looks back, so that only the last shows
    this.dismissed = null; // the game version whose game-over panel was closed
    this.drawAnswer = ''; // the engine's answer to a draw offer, till the next move
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
    this.area = document.getElementById('play-area');
    for (const side of ['white', 'black']) fillBar(this.$(`bar-${side}`), side);
    this.analysisBox = document.getElementById('play-analysis');
    // The page's clocks reaching zero asks the server, which rules on it.
    this.clocks = new Clocks(this.area, () => this.load());
    this.bindControls();
    this.bindKeys();
  }

  $(id) { return document.getElementById(id); }

  bindControls() {
    const s = this.settings;
    const colour = this.$('set-colour');
    colour.value = s.colour;
    colour.addEventListener('change', () => {
      s.colour = colour.value;
      this.setFlipped(s.colour === 'black');
      this.save();
      this.renderBars();
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
    this.$('btn-flip').addEventListener('click', () => this.flip());
    this.$('btn-engine').addEventListener('click', () => this.engineButton());
    this.$('btn-resign').addEventListener('click', () => this.resignButton());
    this.$('btn-draw').addEventListener('click', () => this.offerDraw());
    this.$('btn-sound').addEventListener('click', () => { sound.setEnabled(!sound.enabled); this.showSound(); });
    this.showSound();
    this.$('btn-live').addEventListener('click', () => this.live());
    this.$('go-new').addEventListener('click', () => this.newGame());
    this.$('go-review').addEventListener('click', () => this.reviewGame());
    this.$('go-close').addEventListener('click', () => {
      this.dismissed = this.game && this.game.version;
      this.showGameOver();
    });
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
    this.setFlipped(s.colour === 'black');
  }

  // resume starts what the game calls for (the engine's move, an
  // analysis) when nothing runs, as after another view's search took the
  // place of this view's.
  resume() {
    if (this.game && !this.search) this.next();
  }

  // bindKeys lets the keyboard do what the buttons do, as in Review: ←
  // and → step through the game's positions, Home and End go to its start
  // and back to the game, f turns the boards round, Escape puts down a
  // picked man (or goes back to the game).
  bindKeys() {
    document.addEventListener('keydown', (ev) => {
      if (!this.$('view-play').classList.contains('active') || typing(ev) || !this.game) return;
      // Keys pressed faster than the positions come step on from the
      // last one asked for.
      const shown = this.viewTarget ?? this.game.ply;
      switch (ev.key) {
        case 'ArrowLeft': this.viewAt(shown - 1); break;
        case 'ArrowRight': this.viewAt(shown + 1); break;
        case 'Home': this.viewAt(0); break;
        case 'End': this.live(); break;
        case 'f': case 'F': this.flip(); break;
        case 'Escape':
          if (this.boards.selected) this.boards.cancelSelection();
          else this.live();
          break;
        default: return;
      }
      ev.preventDefault();
    });
  }

  setFlipped(f) {
    this.boards.setFlipped(f);
    // White's bar below the boards, Black's above; the other way round
    // when they are turned.
    this.area.classList.toggle('flipped', f);
  }

  flip() { this.setFlipped(!this.boards.flipped); }

  showSound() {
    const b = this.$('btn-sound');
    b.textContent = sound.enabled ? 'Sound on' : 'Sound off';
    b.setAttribute('aria-pressed', String(sound.enabled));
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

  // names says who plays each side: {white: 'You', black: 'AliceZero'}.
  names() {
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
    const header = document.getElementById('engine-name');
    header.textContent = label;
    header.title = label;
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

  // engineBusy reports whether the engine is moving or weighing a draw.
  engineBusy() { return this.searchKind === 'play' || this.searchKind === 'draw'; }

  userToMove() { return this.game && this.game.status === 'ongoing' && !this.engineToMove() && !this.engineBusy() && this.viewPly === null; }

  // show draws a new state of the game and lets the engine move if it is
  // its turn. A player looking back at an earlier position stays there
  // while the game goes on from it.
  show(game, fromEngine = false) {
    if (!fromEngine) this.shownInfo = false;
    const before = this.game;
    this.game = game;
    this.sound(before, game);
    if (!before || game.ply !== before.ply || game.version !== before.version) this.drawAnswer = '';
    if (this.viewPly !== null && (this.viewPly >= game.ply || !before || !sameLine(before, game, this.viewPly))) {
      this.viewPly = null;
      this.viewTarget = null;
      this.viewSeq++;
    }
    if (this.viewPly === null) this.drawLive();
    else this.drawMoves(this.viewPly);
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
    this.showGameOver();
    this.showStatus();
    this.next();
  }

  // sound plays what the game's change calls for: a move, a capture, a
  // check, or its end.
  sound(before, game) {
    if (!before || !sameLine(before, game, before.ply)) return;
    const over = game.status !== 'ongoing';
    if (over && before.status === 'ongoing') sound.play('end');
    else if (game.ply === before.ply + 1 && game.last_move) sound.play(game.check ? 'check' : game.last_move.capture ? 'capture' : 'move');
  }

  // drawLive shows the game's position on the boards.
  drawLive() {
    this.boards.setPosition(this.game);
    this.drawMoves(this.game.ply);
    this.renderBars(this.game, this.game.ply);
    this.area.classList.remove('viewing');
    delete document.body.dataset.viewPly;
  }

  drawMoves(current) {
    const g = this.game;
    moveList(this.$('play-moves'), g.moves, fenSide(g.start_fen), fenFullmove(g.start_fen), current, (ply) => this.viewAt(ply));
  }

  // viewAt shows the position after ply moves of the game, to look at;
  // the game's own ply goes back to it.
  async viewAt(ply) {
    const g = this.game;
    if (!g) return;
    ply = Math.max(0, Math.min(g.ply, ply));
    if (ply === g.ply) {
      this.live();
      return;
    }
    const seq = ++this.viewSeq;
    this.viewTarget = ply;
    let pos;
    try {
      pos = await api('POST', '/position', { fen: g.start_fen, variant: g.variant, moves: g.moves.slice(0, ply).map((m) => m.uci) });
    } catch (e) {
      if (seq === this.viewSeq) this.viewTarget = this.viewPly;
      toast(e.message, true);
      return;
    }
    if (seq !== this.viewSeq || this.game !== g) return;
    this.viewPly = ply;
    this.boards.setPosition({ ...pos, legal: [] });
    this.drawMoves(ply);
    this.renderBars(pos, ply);
    this.area.classList.add('viewing');
    document.body.dataset.viewPly = String(ply);
    this.showStatus();
  }

  // live goes back from looking at an earlier position to the game's.
  live() {
    this.viewSeq++;
    this.viewTarget = null;
    if (this.viewPly === null || !this.game) return;
    this.viewPly = null;
    this.drawLive();
    this.showStatus();
  }

  // renderBars fills each side's bar: its name, the men it had taken by
  // ply (of pos, the position shown), and which side is to move there.
  renderBars(pos = this.game, ply = pos ? pos.ply : 0) {
    if (!this.game || !pos) return;
    const names = this.names();
    const moves = this.game.moves.slice(0, ply);
    const ongoing = this.viewPly !== null || this.game.status === 'ongoing';
    for (const side of ['white', 'black']) {
      const bar = this.$(`bar-${side}`);
      bar.querySelector('.player-name').textContent = names[side];
      bar.classList.toggle('to-move', ongoing && pos.side === side);
      renderMaterial(this.$(`material-${side}`), side, moves, pos);
    }
  }

  showStatus() {
    const g = this.game;
    const live = this.$('btn-live');
    if (g && this.viewPly !== null) {
      const m = g.moves[this.viewPly - 1];
      const where = this.viewPly === 0 ? 'the start' : `${moveNumber(g, this.viewPly)} ${m.san}`;
      this.$('play-status').textContent = `Looking at the position after ${where} (move ${this.viewPly} of ${g.ply}) · ← → to step ·`;
      live.classList.remove('hidden');
      document.body.dataset.thinking = this.searchKind === 'play' ? '1' : '0';
      this.showButtons();
      return;
    }
    live.classList.add('hidden');
    let text = g ? statusText(g) : '';
    const c = g && g.clock;
    if (c && !c.running && g.status === 'ongoing') text = `${text} · the clocks start with the first move`;
    if (this.searchKind === 'play') text = `${text} · AliceZero is thinking…`;
    if (this.searchKind === 'draw') text = `${text} · you offer a draw: AliceZero is weighing it…`;
    else if (this.drawAnswer) text = `${text} · ${this.drawAnswer}`;
    this.$('play-status').textContent = text;
    document.body.dataset.thinking = this.searchKind === 'play' ? '1' : '0';
    this.showButtons();
  }

  // showButtons enables what the game allows.
  showButtons() {
    const g = this.game;
    const ongoing = Boolean(g) && g.status === 'ongoing';
    this.$('btn-engine').textContent = this.searchKind === 'play' ? 'Move now' : 'Engine move';
    this.$('btn-engine').disabled = !ongoing || this.searchKind === 'draw';
    this.$('btn-resign').disabled = !ongoing;
    this.$('btn-draw').disabled = !ongoing || this.engineBusy();
    if (!ongoing) this.resetResign();
  }

  // showGameOver shows, once a game has ended, what ended it, with a new
  // game and a review of this one at hand.
  showGameOver() {
    const g = this.game;
    const panel = this.$('game-over');
    const over = Boolean(g) && g.status !== 'ongoing' && this.dismissed !== g.version;
    panel.classList.toggle('hidden', !over);
    if (!over) return;
    const names = this.names();
    const winner = g.result === '1-0' ? 'white' : g.result === '0-1' ? 'black' : null;
    const loser = winner && (winner === 'white' ? 'black' : 'white');
    const wins = (side) => (names[side] === 'You' ? 'You win' : `${names[side]} wins`);
    const titles = {
      checkmate: 'Checkmate',
      stalemate: 'Stalemate',
      threefold: 'Draw by threefold repetition',
      'fifty-move': 'Draw by the fifty-move rule',
      'dead-position': 'Draw: only the kings are left',
      'draw-agreed': 'Draw agreed',
      resigned: loser && (names[loser] === 'You' ? 'You resigned' : `${names[loser]} resigned`),
      'time-forfeit': g.clock && g.clock.flag && `${names[g.clock.flag] === 'You' ? 'Your' : `${names[g.clock.flag]}'s`} time ran out`,
    };
    this.$('go-title').textContent = titles[g.status] || statusText(g);
    this.$('go-detail').textContent = winner ? `${wins(winner)} · ${g.result}` : `a draw · ${g.result}`;
    panel.dataset.status = g.status;
  }

  // reviewGame opens this game in the Review view.
  async reviewGame() {
    try {
      const r = await api('GET', '/game/pgn');
      this.onReview(r.pgn);
    } catch (e) { toast(e.message, true); }
  }

  // next starts what the position calls for: the engine's move, an
  // analysis, or nothing.
  next() {
    if (!this.game) return;
    if (this.searchKind === 'draw') return; // its answer comes first
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

  // searchFor starts a search of kind, its reports in the pane; done(d)
  // gets its last event once the pane shows it, failed(e) an error that
  // ended it.
  searchFor(kind, request, done, failed) {
    this.stopSearch();
    this.searchKind = kind;
    const fullmove = this.game.fullmove;
    const search = new Search({ kind, weights: this.settings.weights, ...request }, {
      engine: (e) => this.namedEngine(e),
      info: (info) => { if (this.search === search) this.panel(info, { fullmove }); },
      done: (d) => {
        if (this.search !== search) return;
        this.search = null;
        this.searchKind = null;
        if (d.info) this.panel(d.info, { fullmove, end: d.end });
        else this.endPanel(d.end || { reason: 'error', text: d.error || 'the engine found nothing' });
        done(d);
      },
      error: (e) => {
        if (this.search !== search) return;
        this.search = null;
        this.searchKind = null;
        this.endPanel({ reason: 'error', text: e.message });
        failed(e);
      },
    });
    this.search = search;
    search.ready.catch((e) => {
      if (this.search !== search) return;
      this.search = null;
      this.searchKind = null;
      this.endPanel({ reason: 'error', text: e.message });
      failed(e);
    });
  }

  startPlay() {
    const failed = (e) => { toast(e.message, true); this.showStatus(); };
    this.searchFor('play', this.playLimits(), (d) => {
      if (d.error) toast(`Engine: ${d.error}`, true);
      this.shownInfo = Boolean(d.info || d.end);
      if (d.game) this.show(d.game, true);
      else this.showStatus();
    }, failed);
    this.showStatus();
  }

  startAnalysis() {
    this.searchFor('analyse', { movetime_ms: this.info.max_movetime_ms }, () => {}, () => {});
    this.panel(null, { idle: 'The engine is starting on your position…' });
  }

  // offerDraw offers the engine a draw (it answers by its evaluation), or
  // with no engine playing agrees it at once.
  async offerDraw() {
    const g = this.game;
    if (!g || g.status !== 'ongoing' || this.engineBusy()) return;
    if (!this.engineColour()) {
      try {
        this.show(await api('POST', '/game/draw', {}));
      } catch (e) { toast(e.message, true); }
      return;
    }
    this.live();
    this.searchFor('draw', { offered_by: this.settings.colour, ...this.limits() }, (d) => {
      this.shownInfo = true;
      if (d.draw) {
        this.drawAnswer = d.draw.text;
        toast(d.draw.text);
      }
      if (d.error) toast(`Engine: ${d.error}`, true);
      const answer = this.drawAnswer;
      if (d.game) this.show(d.game, true);
      this.drawAnswer = answer; // shown until the game moves on
      this.showStatus();
      this.next();
    }, (e) => { toast(e.message, true); this.showStatus(); this.next(); });
    this.showStatus();
  }

  // resignButton resigns at the second click: the first asks.
  resignButton() {
    const b = this.$('btn-resign');
    if (!this.game || this.game.status !== 'ongoing') return;
    if (!b.classList.contains('confirm')) {
      b.classList.add('confirm');
      b.textContent = 'Resign? Click again';
      clearTimeout(this.resignTimer);
      this.resignTimer = setTimeout(() => this.resetResign(), 4000);
      return;
    }
    this.resetResign();
    this.resign();
  }

  resetResign() {
    const b = this.$('btn-resign');
    clearTimeout(this.resignTimer);
    b.classList.remove('confirm');
    b.textContent = 'Resign';
  }

  // resign resigns the game for the player (playing both sides, for the
  // side to move).
  async resign() {
    this.stopSearch();
    const side = this.engineColour() ? this.settings.colour : this.game.side;
    try {
      this.show(await api('POST', '/game/resign', { side }));
    } catch (e) { toast(e.message, true); }
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
    if (this.game && this.game.status === 'ongoing' && !this.engineBusy()) {
      this.live();
      this.startPlay();
    }
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

// fillBar makes side's bar: a disc of its colour, its player's name, the
// men it has taken and its lead (#material-SIDE), and its clock
// (#clock-SIDE, hidden in an untimed game).
function fillBar(bar, side) {
  const name = side === 'white' ? 'White' : 'Black';
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text) e.textContent = text;
    return e;
  };
  const clock = el('div', { class: 'clock hidden', id: `clock-${side}`, 'data-side': side });
  clock.appendChild(el('span', { class: 'clock-time', role: 'timer' }, '0:00'));
  bar.replaceChildren(
    el('span', { class: `clock-side ${side}`, 'aria-hidden': 'true' }),
    el('span', { class: 'player-name' }, name),
    el('span', { class: 'material', id: `material-${side}`, title: `The men ${name} has taken, by the board they were taken on, and ${name}'s lead in material` }),
    clock);
}

// sameLine reports whether game b goes on from a's first ply moves.
function sameLine(a, b, ply) {
  if (a.start_fen !== b.start_fen || b.moves.length < ply) return false;
  for (let i = 0; i < ply; i++) if (a.moves[i].uci !== b.moves[i].uci) return false;
  return true;
}

// moveNumber writes the number of the move that makes ply ply of g:
// "3." for White's, "3…" for Black's.
function moveNumber(g, ply) {
  const whiteFirst = fenSide(g.start_fen) === 'white';
  const n = fenFullmove(g.start_fen) + Math.floor((ply - 1 + (whiteFirst ? 0 : 1)) / 2);
  const white = (ply - 1) % 2 === (whiteFirst ? 0 : 1);
  return white ? `${n}.` : `${n}…`;
}
