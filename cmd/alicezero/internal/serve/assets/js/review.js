// The Review view: a PGN game stepped through on its boards, the
// engine's evaluation graph across it, and analysis of any position.

import { api, Search } from './api.js';
import { TwinBoards } from './board.js';
import { renderAnalysis, scoreText } from './analysis.js';
import { lineChart } from './charts.js';
import { toast, statusText, moveList, typing } from './ui.js';

export class ReviewView {
  constructor(info, play, showView) {
    this.info = info;
    this.play = play;
    this.showView = showView;
    this.pgn = '';
    this.game = null; // the game described by /api/pgn
    this.ply = 0;
    this.evals = [];
    this.search = null; // the evaluation of the game, or the analysis
    this.searchKind = null; // 'evaluate' or 'analyse' while one runs
    this.analysing = false; // the analysis is on: it follows the steps
    this.analysisPly = null; // the ply the analysis pane shows
    this.boards = new TwinBoards(document.getElementById('review-boards'), { interactive: false });
    const $ = (id) => document.getElementById(id);
    this.$ = $;
    $('rv-load').addEventListener('click', () => this.open($('rv-text').value));
    $('rv-file').addEventListener('change', async (ev) => {
      const f = ev.target.files[0];
      if (f) {
        const text = await f.text();
        $('rv-text').value = text;
        this.open(text);
      }
    });
    $('rv-games').addEventListener('change', (ev) => this.open(this.pgn, Number(ev.target.value)));
    $('rv-first').addEventListener('click', () => this.go(0));
    $('rv-prev').addEventListener('click', () => this.go(this.ply - 1));
    $('rv-next').addEventListener('click', () => this.go(this.ply + 1));
    $('rv-last').addEventListener('click', () => this.go(this.game ? this.game.moves.length : 0));
    $('rv-flip').addEventListener('click', () => this.boards.flip());
    $('rv-eval').addEventListener('click', () => this.evaluate());
    $('rv-analyse').addEventListener('click', () => this.toggleAnalysis());
    $('rv-play').addEventListener('click', () => {
      if (!this.game) return;
      this.play.loadLine({ pgn: this.pgn, game: this.game.index, ply: this.ply });
      this.showView('play');
    });
    document.addEventListener('keydown', (ev) => {
      if (!document.getElementById('view-review').classList.contains('active') || typing(ev)) return;
      const keys = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.game ? this.game.moves.length : 0 };
      if (ev.key in keys) {
        ev.preventDefault();
        this.go(keys[ev.key]);
      } else if (ev.key === 'f' || ev.key === 'F') {
        ev.preventDefault();
        this.boards.flip();
      }
    });
    this.idleAnalysis();
  }

  // openText shows a PGN text's first game, the text in the Game panel.
  openText(text) {
    this.$('rv-text').value = text;
    return this.open(text);
  }

  // open reads a PGN text and shows its game number index.
  async open(text, index = 0, name = '') {
    this.$('rv-error').textContent = '';
    this.stop();
    try {
      const res = await api('POST', '/pgn', { pgn: text, game: index });
      this.setGame(text, res, name);
    } catch (e) {
      this.$('rv-error').textContent = e.message;
    }
  }

  // setGame shows a game of a parsed PGN (as /api/pgn answers).
  setGame(text, res, name = '') {
    this.analysing = false;
    this.stop();
    this.analysisPly = null;
    this.pgn = text;
    this.game = res.game;
    this.evals = [];
    const sel = this.$('rv-games');
    sel.replaceChildren();
    for (const g of res.games) {
      const title = [g.white, g.black].filter(Boolean).join(' – ') || g.event || 'game';
      sel.appendChild(new Option(`${g.index + 1}. ${title}${g.round ? ` (${g.round})` : ''}, ${g.result}, ${g.plies} plies${g.error ? ' (error)' : ''}`, String(g.index)));
    }
    sel.value = String(res.game.index);
    sel.classList.toggle('hidden', res.games.length < 2);
    const tags = this.$('rv-tags');
    tags.replaceChildren();
    if (name) tags.appendChild(Object.assign(document.createElement('div'), { className: 'muted', textContent: name }));
    for (const [k, v] of res.game.tags) {
      if (['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result', 'Termination'].includes(k) && v && v !== '?' && v !== '????.??.??') {
        tags.appendChild(Object.assign(document.createElement('div'), { textContent: `${k}: ${v}` }));
      }
    }
    if (res.game.error) this.$('rv-error').textContent = `Read up to an error: ${res.game.error}`;
    this.go(res.game.moves.length);
  }

  go(ply) {
    if (!this.game) return;
    const moved = this.ply !== Math.max(0, Math.min(this.game.moves.length, ply));
    this.ply = Math.max(0, Math.min(this.game.moves.length, ply));
    const p = this.game.positions[this.ply];
    this.boards.setPosition({ ...p, legal: [] });
    const g = this.game;
    const startSide = g.positions[0].side;
    const fullmove = Number(g.start_fen.split(' ')[5]) || 1;
    moveList(this.$('rv-moves'), g.moves, startSide, fullmove, this.ply, (i) => this.go(i));
    let status = `Ply ${this.ply} of ${g.moves.length}`;
    if (p.status !== 'ongoing') status += ` · ${statusText(p)}`;
    else if (this.ply === g.moves.length && g.result !== '*') status += ` · result ${g.result}`;
    const ev = this.evals[this.ply];
    if (ev) status += ` · eval ${scoreText({ mate: ev.mate, side: p.side, white_value: ev.white_value })}`;
    this.$('review-status').textContent = status;
    document.body.dataset.reviewPly = String(this.ply);
    this.drawGraph();
    // The analysis pane shows the position on the boards, never one left:
    // switched on, the analysis follows the steps; off, the pane is cleared.
    if (moved || this.analysisPly !== this.ply) {
      if (this.analysing) this.startAnalysis();
      else this.idleAnalysis();
    }
  }

  drawGraph() {
    const box = this.$('rv-graph');
    if (!this.game) return;
    const points = [];
    this.evals.forEach((e, i) => { if (e) points.push([i, e.white_value]); });
    lineChart(box, {
      title: 'Evaluation (White’s view: +1 White wins, −1 Black wins)',
      xLabel: 'ply',
      series: [{ key: 'eval', label: 'evaluation', color: '#2563eb', points }],
      yRange: [-1, 1],
      area: true,
      integerX: true,
      markerX: this.ply,
      onPick: (x) => this.go(x),
    });
    if (!points.length) {
      const hint = document.createElement('div');
      hint.className = 'muted';
      hint.textContent = 'Press “Evaluate game” to have the engine score every position.';
      box.appendChild(hint);
    }
  }

  // stop ends the search running, the evaluation or the analysis.
  stop() {
    if (this.search) this.search.close();
    this.search = null;
    this.searchKind = null;
    this.$('rv-eval').textContent = 'Evaluate game';
    this.$('rv-analyse').textContent = this.analysing ? 'Stop analysis' : 'Analyse position';
  }

  evaluate() {
    if (!this.game) return;
    if (this.searchKind === 'evaluate') {
      this.stop();
      return;
    }
    // One search at a time: the evaluation ends the analysis.
    if (this.analysing) this.stopAnalysis();
    this.evals = [];
    const visits = Math.max(1, Math.min(this.info.max_visits, Number(this.$('rv-visits').value) || 64));
    const total = this.game.moves.length + 1;
    this.searchKind = 'evaluate';
    this.$('rv-eval').textContent = 'Stop';
    const search = new Search({ kind: 'review', pgn: this.pgn, game: this.game.index, visits, weights: this.play.settings.weights }, {
      ply: (p) => {
        this.evals[p.ply] = p;
        this.$('rv-eval').textContent = `Stop (${p.ply + 1}/${total})`;
        this.drawGraph();
      },
      done: (d) => {
        if (this.search !== search) return;
        this.search = null;
        this.searchKind = null;
        this.$('rv-eval').textContent = 'Evaluate game';
        if (d.error) toast(d.error, true);
        document.body.dataset.reviewEvaluated = String(this.evals.filter(Boolean).length);
        this.go(this.ply);
      },
    });
    this.search = search;
    search.ready.catch((e) => { toast(e.message, true); this.stop(); });
  }

  // toggleAnalysis switches the analysis on (of the position on the
  // boards, and of each one stepped to) or off.
  toggleAnalysis() {
    if (!this.game) return;
    if (this.analysing) {
      this.stopAnalysis();
      return;
    }
    this.analysing = true;
    this.startAnalysis();
  }

  // stopAnalysis switches the analysis off, its last report kept, marked
  // as stopped.
  stopAnalysis() {
    this.analysing = false;
    if (this.searchKind === 'analyse') {
      this.stop();
      if (this.lastInfo) renderAnalysis(this.$('rv-analysis'), { ...this.lastInfo, final: true }, { ...this.analysisOpts, end: { reason: 'stopped', text: 'stopped by you' } });
    }
    this.$('rv-analyse').textContent = 'Analyse position';
  }

  // idleAnalysis clears the analysis pane.
  idleAnalysis() {
    this.analysisPly = null;
    this.lastInfo = null;
    const box = this.$('rv-analysis');
    delete box.dataset.ply;
    renderAnalysis(box, null, { idle: 'Analyse the position on the boards with the engine.' });
  }

  // startAnalysis analyses the position on the boards.
  startAnalysis() {
    if (!this.game) return;
    this.stop();
    const box = this.$('rv-analysis');
    const ply = this.ply;
    const p = this.game.positions[ply];
    this.analysisPly = ply;
    this.lastInfo = null;
    box.dataset.ply = String(ply);
    const caption = ply === 0 ? 'The start position' : `After ${this.moveName(ply)} (ply ${ply})`;
    if (p.status !== 'ongoing') {
      renderAnalysis(box, null, { idle: `${caption}: ${statusText(p)}` });
      return;
    }
    const moves = this.game.moves.slice(0, ply).map((m) => m.uci);
    const opts = { fullmove: Number(p.fen.split(' ')[5]) || 1, caption };
    this.analysisOpts = opts;
    renderAnalysis(box, null, { idle: `${caption}: the engine is starting…` });
    this.searchKind = 'analyse';
    this.$('rv-analyse').textContent = 'Stop analysis';
    const search = new Search({ kind: 'analyse', fen: this.game.start_fen, variant: this.game.variant, moves, weights: this.play.settings.weights, ...this.play.limits() }, {
      info: (info) => {
        if (this.search !== search) return;
        this.lastInfo = info;
        renderAnalysis(box, info, opts);
      },
      done: (d) => {
        if (this.search !== search) return;
        this.search = null;
        this.searchKind = null;
        if (d.info) this.lastInfo = d.info;
        if (this.lastInfo) renderAnalysis(box, { ...this.lastInfo, final: true }, { ...opts, end: d.end });
        else renderAnalysis(box, null, { idle: `${caption}: ${d.error || 'the engine found nothing'}` });
        if (d.error) toast(d.error, true);
      },
      error: (e) => {
        if (this.search !== search) return;
        this.search = null;
        this.searchKind = null;
        toast(e.message, true);
        renderAnalysis(box, this.lastInfo && { ...this.lastInfo, final: true }, { ...opts, idle: `${caption}: ${e.message}`, end: { reason: 'error', text: e.message } });
      },
    });
    this.search = search;
    search.ready.catch((e) => {
      if (this.search !== search) return;
      this.search = null;
      this.searchKind = null;
      toast(e.message, true);
      renderAnalysis(box, null, { idle: `${caption}: ${e.message}` });
    });
  }

  // moveName writes the move that led to ply as a reader writes it:
  // "2… d5".
  moveName(ply) {
    const g = this.game;
    const before = g.positions[ply - 1];
    const n = Number(before.fen.split(' ')[5]) || 1;
    return `${n}${before.side === 'white' ? '.' : '…'} ${g.moves[ply - 1].san}`;
  }
}
