// Cool am Pool's pool: the loungers by colour and row, towels and bathers, the lifeguard, the dice.

import { colourOf, el, lang, piece, svg, t } from "../common.js";
import { dice } from "../drawing.js";

export function draw(view, pick) {
  const board = view.board;
  const colours = board.colours;
  const rows = [5, 4, 3, 2];
  const cellW = 62;
  const cellH = 44;
  const x0 = 26;
  const y0 = 28;
  const closes = view.lifeguard?.closes ?? {};
  const out = [svg("defs", {}, hatch())];
  colours.forEach((colour, c) => {
    const x = x0 + c * cellW;
    out.push(svg("rect", { x: x + 2, y: 4, width: cellW - 4, height: 18, rx: 4, fill: colourOf(colour) }));
    out.push(svg("text", { x: x + cellW / 2, y: 17, class: "column-name", text: t(`colour.${colour}.mark`) }));
    if (closes.column === colour) out.push(svg("rect", { x: x + 1, y: y0, width: cellW - 2, height: cellH * 4, class: "closed" }));
  });
  rows.forEach((row, r) => {
    const y = y0 + r * cellH;
    out.push(svg("text", { x: 12, y: y + cellH / 2 + 5, class: "part-name", text: row }));
    if (String(closes.row) === String(row)) out.push(svg("rect", { x: x0, y, width: cellW * colours.length, height: cellH, class: "closed" }));
    const here = board.loungers.filter((l) => l.row === row);
    here.forEach((lounger, i) => {
      const c = lounger.colour === null ? i * 2 + 1 : colours.indexOf(lounger.colour);
      const same = here.filter((l) => l.colour === lounger.colour);
      const k = lounger.colour === null ? 0 : same.indexOf(lounger);
      const lx = x0 + c * cellW + 4 + k * 28;
      const colourOfSeat = (seat) => view.seats.find((s) => s.seat === seat)?.colour;
      const cell = [svg("rect", { x: lx, y: y + 6, width: 26, height: cellH - 12, rx: 4, class: "lounger" })];
      if (lounger.towel !== null) {  // the towel under any bather, in its owner's colour
        cell.push(svg("rect", { x: lx + 2, y: y + 8, width: 22, height: cellH - 16, rx: 3, class: "towel-cloth", fill: colourOf(colourOfSeat(lounger.towel)) }));
      }
      const seat = lounger.bather ?? lounger.towel;
      if (seat !== null) {
        const p = piece(seat, colourOfSeat(seat), lx + 13, y + cellH / 2 - 2, 8);
        if (lounger.bather === null) p.setAttribute("class", "piece towel");
        cell.push(p);
      }
      const mark = /[a-z]$/.test(lounger.label) ? lounger.label.slice(-1) : "";
      if (mark) cell.push(svg("text", { x: lx + 22, y: y + cellH - 8, class: "lounger-mark", text: mark }));
      const action = pick?.actions.get(lounger.id);
      out.push(action
        ? svg("g", { class: `pickable${pick.chosen === lounger.id ? " chosen" : ""}`, role: "button", tabindex: 0, "data-lounger": lounger.id,
            "aria-label": lounger.label, "aria-pressed": String(pick.chosen === lounger.id), onclick: () => pick.pick(lounger.id),
            onkeydown: (e) => (e.key === "Enter" || e.key === " ") && pick.pick(lounger.id) }, cell)
        : svg("g", {}, cell));
    });
  });
  const width = x0 + cellW * colours.length + 4;
  const guard = view.lifeguard;
  return [
    svg("svg", { viewBox: `0 0 ${width} ${y0 + cellH * 4 + 6}`, role: "img", "aria-label": t("board") }, out),
    guard ? el("p", { class: "caption", text: t("pool.lifeguard", { space: closesWords(guard) }) }) : null,
    el("p", { class: "caption", text: t("pool.chips", { n: view.pool_chips }) }),
    view.phase === "over" ? null : dice(view.dice), // a finished game's dice have nothing to show
  ];
}

function hatch() {
  return svg("pattern", { id: "hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, class: "hatch-line" }));
}

// What the lifeguard closes, in the table's words for this language: "row 2", "die rote Spalte".
const closesWords = (guard) => (lang === "de" ? guard.closes_words.de : guard.closes_words.en);
