// The Training view: each run's metrics as charts that follow the run
// while it goes on, its checkpoints with their evaluation results, and
// its newest sampled games.

import { api } from './api.js';
import { lineChart, PALETTE, formatNumber } from './charts.js';
import { toast } from './ui.js';

// Names for the metrics the trainer is known to write; any other number
// in metrics.jsonl is drawn too, under a name made from its key.
const NAMES = {
  loss_policy: 'policy loss',
  loss_value: 'value loss',
  loss_total: 'total loss',
  loss_l2: 'L2 penalty',
  heldout_value_loss: 'held-out value loss',
  heldout_value_baseline: 'held-out value baseline',
  heldout_policy_loss: 'held-out policy loss',
  heldout_policy_kl: 'held-out policy KL',
  policy_kl: 'policy KL',
  games_per_hour: 'games per hour',
  positions_per_s: 'self-play positions/s',
  sims_per_s: 'simulations/s',
  train_positions_per_s: 'training positions/s',
  mean_game_length: 'mean game length (plies)',
  learning_rate: 'learning rate',
  buffer_size: 'replay buffer (positions)',
  'eval.elo': 'Elo vs alpha-beta',
  'eval.vs_random.score': 'vs random',
  'eval.vs_alphabeta.score': 'vs alpha-beta',
  'eval.vs_previous.score': 'vs previous checkpoint',
  white_wins: 'White wins',
  black_wins: 'Black wins',
  draws: 'draws',
  adjudicated: 'adjudicated',
  resigned: 'resigned',
  false_resigns: 'false resignations',
};

// The charts drawn first, each a group of related metrics on one scale.
const GROUPS = [
  { title: 'Training losses', keys: ['loss_policy', 'loss_value', 'loss_total'] },
  { title: 'Held-out metrics', match: (k) => k.startsWith('heldout_') || k === 'policy_kl' },
  { title: 'Strength: score per match (1 = all won)', keys: ['eval.vs_random.score', 'eval.vs_alphabeta.score', 'eval.vs_previous.score'], yRange: [0, 1] },
  { title: 'Strength: Elo against the alpha-beta reference', keys: ['eval.elo'] },
  { title: 'Self-play speed', keys: ['games_per_hour'] },
  { title: 'Game length', keys: ['mean_game_length'] },
  { title: 'Results of self-play games', keys: ['white_wins', 'black_wins', 'draws'] },
];

// Keys never drawn: the x axis, and counters that only grow.
const SKIP = new Set(['iteration', 'elapsed_s', 'total_steps', 'total_positions']);

// eloText writes an Elo difference in whole points, signed, with no
// "-0" for a difference that rounds to nothing.
export function eloText(v) {
  const r = Math.round(v);
  if (r === 0) return '0';
  return r > 0 ? `+${r}` : `−${-r}`;
}

export function metricName(key) {
  if (NAMES[key]) return NAMES[key];
  return key.replace(/^eval\./, 'eval ').replace(/\./g, ' · ').replace(/_/g, ' ');
}

export class TrainingView {
  constructor(info, play, review, showView) {
    this.info = info;
    this.play = play;
    this.review = review;
    this.showView = showView;
    this.run = null;
    this.hidden = new Map(); // chart title → hidden series
    this.timer = null;
    this.lastRows = null;
  }

  $(id) { return document.getElementById(id); }

  async activate() {
    await this.loadRuns();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.refresh(), 5000);
  }

  deactivate() {
    clearInterval(this.timer);
    this.timer = null;
  }

  async loadRuns() {
    let runs = [];
    try {
      runs = (await api('GET', '/runs')).runs;
    } catch (e) {
      toast(e.message, true);
      return;
    }
    const ul = this.$('runs');
    ul.replaceChildren();
    this.$('runs-empty').classList.toggle('hidden', runs.length > 0);
    for (const r of runs) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.className = `run${this.run === r.name ? ' active' : ''}`;
      b.dataset.run = r.name;
      const name = document.createElement('div');
      name.className = 'run-name';
      name.textContent = r.name;
      const meta = document.createElement('div');
      meta.className = 'muted';
      meta.textContent = `iteration ${r.iteration} · ${r.checkpoints} checkpoints · ${new Date(r.modified).toLocaleString()}`;
      b.append(name, meta);
      b.addEventListener('click', () => this.open(r.name));
      li.appendChild(b);
      ul.appendChild(li);
    }
    if (!this.run && runs.length) this.open(runs[0].name);
  }

  async open(name) {
    this.run = name;
    this.lastRows = null;
    for (const b of this.$('runs').querySelectorAll('button.run')) b.classList.toggle('active', b.dataset.run === name);
    this.$('run-title').textContent = name;
    await this.refresh(true);
  }

  async refresh(all = false) {
    if (!this.run) return;
    const name = this.run;
    try {
      const m = await api('GET', `/runs/${encodeURIComponent(name)}/metrics`);
      if (this.run !== name) return;
      const changed = JSON.stringify(m.rows) !== JSON.stringify(this.lastRows);
      if (changed || all) {
        this.lastRows = m.rows;
        this.drawCharts(m.rows);
        this.$('run-updated').textContent = `${m.rows.length} iterations · updated ${new Date().toLocaleTimeString()}`;
        await Promise.all([this.loadCheckpoints(name), this.loadGames(name)]);
      }
    } catch (e) {
      toast(e.message, true);
    }
  }

  drawCharts(rows) {
    const keys = new Set();
    for (const r of rows) for (const [k, v] of Object.entries(r)) if (typeof v === 'number' && !SKIP.has(k)) keys.add(k);
    const used = new Set();
    const box = this.$('charts');
    box.replaceChildren();
    const xOf = (r, i) => (typeof r.iteration === 'number' ? r.iteration : i + 1);
    const series = (k, i) => ({
      key: k,
      label: metricName(k),
      color: PALETTE[i % PALETTE.length],
      points: rows.flatMap((r, j) => (typeof r[k] === 'number' ? [[xOf(r, j), r[k]]] : [])),
    });
    const draw = (parent, title, ks, extra = {}) => {
      const div = document.createElement('div');
      div.dataset.chart = title;
      parent.appendChild(div);
      if (!this.hidden.has(title)) this.hidden.set(title, new Set());
      lineChart(div, { title, xLabel: 'iteration', integerX: true, series: ks.map(series), hidden: this.hidden.get(title), legend: true, ...extra });
    };
    for (const g of GROUPS) {
      const ks = g.keys ? g.keys.filter((k) => keys.has(k)) : [...keys].filter(g.match).sort();
      if (!ks.length) continue;
      ks.forEach((k) => used.add(k));
      draw(box, g.title, ks, g.yRange ? { yRange: g.yRange } : {});
    }
    const rest = [...keys].filter((k) => !used.has(k)).sort();
    const other = this.$('other-charts');
    other.replaceChildren();
    this.$('other-charts-box').classList.toggle('hidden', rest.length === 0);
    for (const k of rest) draw(other, metricName(k), [k]);
    document.body.dataset.charts = String(box.children.length + other.children.length);
  }

  async loadCheckpoints(name) {
    const { checkpoints } = await api('GET', `/runs/${encodeURIComponent(name)}/checkpoints`);
    const tbody = this.$('ckpt-table').querySelector('tbody');
    tbody.replaceChildren();
    // A match's score, its wins, draws and losses after it (under it on a
    // phone).
    const score = (ms) => {
      const td = document.createElement('td');
      if (!ms) return td;
      td.textContent = formatNumber(ms.score);
      if (ms.wins !== undefined) {
        td.append(' ', Object.assign(document.createElement('span'), { className: 'wdl-detail', textContent: `(+${ms.wins} =${ms.draws ?? 0} −${ms.losses ?? 0})` }));
      }
      return td;
    };
    const cell = (text) => Object.assign(document.createElement('td'), { textContent: text });
    for (const c of checkpoints) {
      const tr = document.createElement('tr');
      const ev = c.eval || {};
      tr.append(cell(String(c.iteration)), score(ev.vs_random), score(ev.vs_alphabeta), score(ev.vs_previous), cell(ev.elo !== undefined ? eloText(ev.elo) : ''));
      const td = document.createElement('td');
      const b = document.createElement('button');
      b.textContent = 'Play';
      b.title = `Play against ${name} iteration ${c.iteration}`;
      b.addEventListener('click', () => {
        this.play.chooseWeights(c.weights, `${name} iteration ${c.iteration}`);
        this.showView('play');
        toast(`The engine is now ${name} iteration ${c.iteration}`);
      });
      td.appendChild(b);
      tr.appendChild(td);
      tbody.appendChild(tr);
    }
  }

  async loadGames(name) {
    const { games } = await api('GET', `/runs/${encodeURIComponent(name)}/games`);
    const ul = this.$('run-games');
    ul.replaceChildren();
    for (const g of games.slice(0, 12)) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.className = 'linklike';
      b.dataset.file = g.file;
      b.textContent = `iteration ${g.iteration} (${g.file})`;
      b.addEventListener('click', async () => {
        try {
          const res = await api('GET', `/runs/${encodeURIComponent(name)}/games/${encodeURIComponent(g.file)}`);
          this.review.setGame(res.pgn, res, `${name}: ${g.file}`);
          this.showView('review');
        } catch (e) { toast(e.message, true); }
      });
      li.appendChild(b);
      ul.appendChild(li);
    }
    if (!games.length) ul.appendChild(Object.assign(document.createElement('li'), { className: 'muted', textContent: 'no games yet' }));
  }
}
