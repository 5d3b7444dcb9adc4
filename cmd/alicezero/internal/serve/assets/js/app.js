// AliceZero's page: three views (Play, Review, Training) over the JSON
// API of "alicezero serve".

import { api } from './api.js';
import { installPieces } from './pieces.js';
import { PlayView } from './play.js';
import { ReviewView } from './review.js';
import { TrainingView } from './training.js';
import { toast, scrollToCurrent } from './ui.js';

async function main() {
  installPieces(document.getElementById('piece-defs'));
  let info;
  try {
    info = await api('GET', '/info');
  } catch (e) {
    toast(`Cannot reach the server: ${e.message}`, true);
    return;
  }
  const views = {};
  const showView = (name) => {
    const changed = document.body.dataset.view !== name;
    for (const b of document.querySelectorAll('#tabs .tab')) b.classList.toggle('active', b.dataset.view === name);
    for (const v of document.querySelectorAll('main .view')) v.classList.toggle('active', v.id === `view-${name}`);
    if (name === 'training') views.training.activate();
    else views.training.deactivate();
    document.body.dataset.view = name;
    if (location.hash !== `#${name}`) history.replaceState(null, '', `#${name}`);
    // Another view starts at its top (not where the last one was
    // scrolled to), its move list showing its current move, which it
    // could not scroll to while hidden.
    if (changed) window.scrollTo(0, 0);
    // Back in Play, what the game calls for goes on: a search another
    // view's took the place of is started again.
    if (changed && name === 'play') views.play.resume();
    for (const ol of document.querySelectorAll(`#view-${name} .movelist`)) scrollToCurrent(ol);
  };
  views.play = new PlayView(info, async (pgn) => {
    await views.review.openText(pgn);
    showView('review');
  });
  views.review = new ReviewView(info, views.play, showView);
  views.training = new TrainingView(info, views.play, views.review, showView);
  for (const b of document.querySelectorAll('#tabs .tab')) b.addEventListener('click', () => showView(b.dataset.view));
  if (!info.runs) document.querySelector('#tabs [data-view=training]').classList.add('hidden');

  const weights = info.weights.slice();
  if (info.runs) {
    try {
      for (const r of (await api('GET', '/runs')).runs) {
        if (r.newest_weights) weights.push({ id: `run:${r.name}`, label: `${r.name} (newest checkpoint)` });
      }
    } catch (e) {
      toast(e.message, true);
    }
  }
  views.play.setWeights(weights);
  await views.play.load();
  const start = location.hash.slice(1);
  showView(['play', 'review', 'training'].includes(start) && (start !== 'training' || info.runs) ? start : 'play');
  document.body.dataset.ready = '1';
}

main();
