// The real board of each game, drawn from its public view; each game's drawing is loaded only
// when that game is played.

import { el } from "./common.js";

const BOARDS = {
  "cool-runnings": () => import("./track.js"),
  "cool-am-pool": () => import("./pool-board.js"),
  "ice-trays": () => import("./trays.js"),
  "daddy-cool": () => import("./floes.js"),
};
const loaded = {};

/** Load the drawing of `game`'s board, once: before `drawBoard` draws one. */
export async function boardFor(game) {
  if (game && BOARDS[game] && !loaded[game]) loaded[game] = await BOARDS[game]();
}

/** The board of any game, with its legend and dice; null before a game (or before its drawing
 * is loaded). `pick` makes places on it tappable (see pool.js's loungerPick). */
export function drawBoard(view, pick = null) {
  const board = loaded[view?.game];
  return board ? el("div", { class: `board-${view.game}` }, board.draw(view, pick)) : null;
}
