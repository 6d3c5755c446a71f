// Daddy Cool on the pages: its path of floes (the shore, the floes to the tub, the cubs, Daddy
// Cool, the dice), on a seat's phone why it must roll on; how far each cub has to the tub, and
// once the game is over the cubs in their places (the rulebook counts no points).

import { el, piece, svg, t } from "../common.js";
import { dice, legend, ways } from "../drawing.js";
import { resultsPanel, scoreLine } from "./scores.js";

/** How far a cub has to go: "3 floes to the tub", or in the tub. */
const toTub = (n) => (n > 0 ? t("daddy.score.to_tub", { n }) : t("daddy.score.in_tub"));

/** A seat's standing: its cub's floes to the tub. */
export function score(seatNumber, view) {
  const seat = view.seats.find((s) => s.seat === seatNumber);
  return seat ? scoreLine(seatNumber, [toTub(seat.to_tub)]) : null;
}

/** The cubs in their places once a cub is in the tub: the nearer the tub, the better. */
export const results = (view, bySeat) => resultsPanel(view, bySeat, { part: (p) => toTub(p.count), points: false });

/** Where the path's first row starts: below the shore's row, with room above each floe for
 * Daddy Cool's marker, so he never covers a cub waiting on the shore. */
const TOP = 60;

export function draw(view) {
  const path = view.path;
  const perRow = 8;
  const size = 34;
  const out = [];
  const at = (position) => {
    const r = Math.floor((position - 1) / perRow);
    const c = (position - 1) % perRow;
    const col = r % 2 === 0 ? c : perRow - 1 - c;
    return { x: 8 + col * (size + 6), y: TOP + r * (size + 22) };
  };
  for (const floe of path) {
    const { x, y } = at(floe.position);
    out.push(svg("g", { class: `floe floe-${floe.kind}` },
      svg("rect", { x, y, width: size, height: size, rx: floe.kind === "tub" ? 14 : 4 }),
      floe.kind === "plain" ? null : svg("text", { x: x + size / 2, y: y + size - 8, class: "space-mark", text: t(`floe.${floe.kind}.mark`) })));
  }
  out.push(ways(path.map((floe) => at(floe.position)), size));
  const shore = view.seats.filter((s) => s.position === 0);
  out.push(svg("text", { x: 4, y: 20, class: "area-name", text: t("floe.shore") }));
  shore.forEach((seat, i) => out.push(piece(seat.seat, seat.colour, 80 + i * 26, 16, 10)));
  for (const seat of view.seats) {
    if (seat.position > 0) {
      const { x, y } = at(seat.position);
      out.push(piece(seat.seat, seat.colour, x + size / 2, y + size / 2, 10));
    }
  }
  if (view.daddy_cool > 0) {
    const { x, y } = at(view.daddy_cool);
    out.push(svg("g", { class: "daddy" }, svg("circle", { cx: x + size / 2, cy: y - 6, r: 13 }),
      svg("text", { x: x + size / 2, y: y - 1, class: "piece-number", text: t("floe.daddy.mark") })));
  }
  const rows = Math.ceil(path.length / perRow);
  return [
    svg("svg", { viewBox: `0 0 ${16 + perRow * (size + 6)} ${TOP + 6 + rows * (size + 22)}`, role: "img", "aria-label": t("board") }, out),
    legend(["plain", "cracked", "tub"].map((kind) => [`floe floe-${kind}`, kind === "plain" ? "" : t(`floe.${kind}.mark`), t(`floe.${kind}`)])),
    dice(view.dice),
  ];
}

/** Why the seat on turn must roll now (a turn's start, a cracked floe, every die aside). */
export function hint({ view, legal }) {
  const forced = legal.length && view.must_roll?.length ? view.must_roll[view.must_roll.length - 1] : null;
  return forced ? el("p", { class: "hint", text: t(`daddy.must_roll.${forced}`) }) : null;
}
