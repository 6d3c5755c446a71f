// Each game's own part of the pages, one module a game (`games/<name>.js`), loaded by the
// game's name when it is played: the generic pages name no game.
//
// A game's module exports `draw(view, pick)`, its board; and, where the game has them:
// `HANDLED` (the action types its own seat controls offer, which the page's plain buttons leave
// out), `prompt(seat)`, `hand(seat)`, `controls(seat)` and `hint(seat)` (its parts of the seat
// page, each given the page's `seat`: view, legal actions, seats by number, `act`, `redraw`),
// `pick(seat)` and `pickChoice(seat, pick)` (places on its board a seat taps), and
// `words(action, view, bySeat)` (the values its actions' button texts name).

import { el } from "./common.js";

const loaded = {};

/** Load `name`'s module once; its module, or null for no game (or a name that is none). */
export async function gameFor(name) {
  if (!name || !/^[a-z-]+$/.test(name)) return null;
  loaded[name] ??= await import(`./games/${name}.js`);
  return loaded[name];
}

/** A game's module once `gameFor` has loaded it, else null. */
export const gameOf = (name) => loaded[name] ?? null;

/** The board of any game, with its legend and dice; null before a game (or before its module is
 * loaded). `pick` makes places on it tappable. */
export function drawBoard(view, pick = null) {
  const game = gameOf(view?.game);
  return game ? el("div", { class: `board-${view.game}` }, game.draw(view, pick)) : null;
}
