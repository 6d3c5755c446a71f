// Ice Trays on the pages: its ring of trays and cups round the table, the blueberries, the
// die's face; and the tray and direction its buttons name.

import { colourOf, el, piece, svg, t } from "../common.js";

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
