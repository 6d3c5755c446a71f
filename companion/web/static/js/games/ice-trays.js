// Ice Trays on the pages: its ring of trays and cups round the table, the blueberries, the
// die's face; the tray and direction its buttons name; each seat's cup as a score, and the
// results once the game is over.

import { colourOf, el, piece, svg, t } from "../common.js";
import { resultsPanel, scoreLine } from "./scores.js";

export function draw(view) {
  const ring = view.ring;
  const cx = 160;
  const cy = 150;
  const radius = 118;
  const out = [];
  for (const side of view.sides) {
    if (!side.blueberry) continue;
    const [a, b] = side.trays.map((n) => ring.findIndex((p) => p.tray === n));
    const angle = angleOf((a + b) / 2, ring.length);
    out.push(svg("circle", { cx: cx + 70 * Math.cos(angle), cy: cy + 70 * Math.sin(angle), r: 8, class: "blueberry" }));
  }
  ring.forEach((place, i) => {
    const angle = angleOf(i, ring.length);
    const x = cx + radius * Math.cos(angle);
    const y = cy + radius * Math.sin(angle);
    if (place.place === "cup") {
      const info = view.seats.find((s) => s.seat === place.seat);
      out.push(svg("circle", { cx: x, cy: y, r: 24, class: "cup" }));
      if (place.seat !== null) out.push(piece(place.seat, info?.colour, x, y - 6, 9));
      out.push(svg("text", { x, y: y + 16, class: "count-mark", text: `${place.cubes}·${place.blueberries}` }));
    } else {
      out.push(svg("rect", { x: x - 20, y: y - 16, width: 40, height: 32, rx: 6, fill: colourOf(place.colour), class: "tray" }));
      out.push(svg("text", { x, y: y + 6, class: "tray-count", text: place.cubes }));
      out.push(svg("text", { x, y: y - 20, class: "tray-name", text: `${t(`colour.${place.colour}.mark`)}${place.tray}` }));
    }
  });
  if (view.face) out.push(svg("text", { x: cx, y: cy + 6, class: "die-face", text: t(`face.${view.face}`) }));
  return [
    svg("svg", { viewBox: "0 0 320 300", role: "img", "aria-label": t("board") }, out),
    el("p", { class: "caption", text: t("trays.key") }),
  ];
}

const angleOf = (i, n) => -Math.PI / 2 + (i * 2 * Math.PI) / n;

/** The values its actions' button texts name. */
export const words = (action) => ({
  tray: action.tray,
  direction: action.direction ? t(`direction.${action.direction}`) : "",
});

/** What a cup holds in words: "5 cubes", "1 blueberry". */
const part = (p) => (p.what === "cubes" ? t("trays.score.cubes", { n: p.count }) : t("trays.score.blueberries", { n: p.count }));

/** A seat's score so far: the cubes and blueberries in its cup, and the points they make. */
export function score(seatNumber, view) {
  const seat = view.seats.find((s) => s.seat === seatNumber);
  if (!seat) return null;
  return scoreLine(seatNumber, [...seat.points_from.map(part), t("results.points", { n: seat.points })]);
}

/** The ranking once the game is over, a tie on points broken by the cubes. */
export const results = (view, bySeat) =>
  resultsPanel(view, bySeat, {
    part,
    tie: (counts) => t("trays.tie", { counts }),
    level: (counts) => t("trays.tie.level", { counts }),
  });
