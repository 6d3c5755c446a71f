// What the boards share: the legend, the dice, and the arrows along a path.

import { colourOf, el, svg, t } from "./common.js";

/** Arrows from each place to the next, on the edge between them: which way the pieces go. */
export function ways(cells, size) {
  const out = [];
  for (let i = 1; i < cells.length; i++) {
    const [a, b] = [cells[i - 1], cells[i]];
    const angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
    const x = (a.x + b.x) / 2 + size / 2;
    const y = (a.y + b.y) / 2 + size / 2;
    out.push(svg("polygon", { points: "-5,-6 6,0 -5,6", class: "way", transform: `translate(${x} ${y}) rotate(${angle})` }));
  }
  return out;
}

export function legend(items) {
  return el(
    "ul",
    { class: "legend" },
    items.map(([cls, mark, words]) =>
      el("li", {}, svg("svg", { viewBox: "0 0 20 20", class: "swatch", "aria-hidden": "true" },
        svg("g", { class: cls }, svg("rect", { x: 1, y: 1, width: 18, height: 18, rx: 3 }),
          mark ? svg("text", { x: 10, y: 15, class: "space-mark small", text: mark }) : null)), words),
    ),
  );
}

/** Dice in a row: each shows its face in words or marks, the ones set aside apart. */
export function dice(list, faceOf = (d) => d.showing) {
  if (!list?.length) return null;
  const size = 34;
  const shown = list.map((d, i) => {
    const face = faceOf(d);
    const x = 4 + i * (size + 8);
    return svg(
      "g",
      { class: `die${d.aside ? " aside" : ""}` },
      svg("rect", { x, y: d.aside ? 22 : 4, width: size, height: size, rx: 7, fill: face ? faceFill(face) : "#fff" }),
      svg("text", { x: x + size / 2, y: (d.aside ? 22 : 4) + size / 2 + 5, class: "die-mark", text: face ? faceMark(face) : "?" }),
    );
  });
  const width = 8 + list.length * (size + 8);
  const faces = [...new Set(list.map(faceOf).filter(Boolean))];
  return el(
    "figure",
    { class: "dice" },
    el("figcaption", { text: list.some((d) => d.aside) ? t("dice.aside_below") : t("dice") }),
    svg("svg", { viewBox: `0 0 ${width} 62`, role: "img", "aria-label": t("dice") }, shown),
    faces.length ? el("p", { class: "caption", text: faces.map(faceWords).join(" · ") }) : null,
  );
}

const faceFill = (face) => (face === "floe" ? "#d8f1ff" : face === "blank" || face === "lifeguard" ? "#fff" : colourOf(face));
const faceMark = (face) => t(`face.${face}.mark`);
/** A face in the dice's key: its mark and its name ("R red"), the name alone where the mark is
 * the name ("floe"). */
const faceWords = (face) => (faceMark(face) === t(`face.${face}`) ? faceMark(face) : `${faceMark(face)} ${t(`face.${face}`)}`);
