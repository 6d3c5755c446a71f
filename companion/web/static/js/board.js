// The real board, drawn from a game's public view: the track, the pool, the trays, the floes, the dice.

import { colourOf, el, piece, svg, t } from "./common.js";

/** The board of any game, with its legend and dice; null before a game. */
export function drawBoard(view) {
  const draw = { "cool-runnings": track, "cool-am-pool": pool, "ice-trays": trays, "daddy-cool": floes }[view?.game];
  return draw ? el("div", { class: `board-${view.game}` }, draw(view)) : null;
}

const S = 36;
const GAP = 4;
const LEFT = 28;

function track(view) {
  const spaces = view.track.spaces;
  const sizes = view.track.sizes ?? chunks(spaces.length, 7);
  const names = [...view.track.parts, t("track.goal")];
  const widest = Math.max(...sizes);
  const rowY = (r) => 44 + r * (S + 14);
  const cells = [];
  let index = 0;
  sizes.forEach((size, r) => {
    for (let c = 0; c < size; c++, index++) {
      const col = r % 2 === 0 ? c : widest - 1 - c;
      cells.push({ index, x: LEFT + col * (S + GAP), y: rowY(r) });
    }
  });
  const width = LEFT + widest * (S + GAP);
  const end = rowY(sizes.length);
  const out = [];
  for (let i = 1; i < cells.length; i++) {
    const [a, b] = [cells[i - 1], cells[i]];
    out.push(svg("line", { x1: a.x + S / 2, y1: a.y + S / 2, x2: b.x + S / 2, y2: b.y + S / 2, class: "track-link" }));
  }
  sizes.forEach((_, r) => out.push(svg("text", { x: 12, y: rowY(r) + S / 2 + 5, class: "part-name", text: names[r] })));
  for (const cell of cells) out.push(space(spaces[cell.index], cell.x, cell.y));
  out.push(ways(cells, S));
  const crossed = [];
  const waiting = [];
  for (const seat of view.seats) {
    if (!seat.in_game) continue;
    const p = seat.position ?? 0;
    if (p === 0) waiting.push(seat);
    else if (p > spaces.length) crossed.push(seat);
    else out.push(piece(seat.seat, seat.colour, cells[p - 1].x + S / 2, cells[p - 1].y + S / 2, 11));
  }
  out.push(svg("text", { x: 4, y: 22, class: "area-name", text: t("track.start") }));
  waiting.forEach((seat, i) => out.push(piece(seat.seat, seat.colour, 70 + i * 28, 18, 11)));
  if (crossed.length) out.push(svg("text", { x: 4, y: end + 14, class: "area-name", text: t("track.finish") }));
  crossed.forEach((seat, i) => out.push(piece(seat.seat, seat.colour, 18 + i * 28, end + 34, 11)));  // under the words
  return [
    svg("svg", { viewBox: `0 0 ${width} ${end + (crossed.length ? 50 : 26)}`, role: "img", "aria-label": t("board") }, out),
    legend(["plain", "lava", "ice", "move"].map((kind) => [spaceClass(kind), t(`space.${kind}.mark`), t(`space.${kind}`)])),
  ];
}

/** Arrows from each place to the next, on the edge between them: which way the pieces go. */
function ways(cells, size) {
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

function spaceClass(kind) {
  return `space space-${kind}`;
}

function space(symbol, x, y) {
  const kind = symbol === "." ? "plain" : symbol === "L" ? "lava" : symbol === "I" ? "ice" : "move";
  const mark = kind === "move" ? symbol.replace("-", "−") : kind === "plain" ? "" : t(`space.${kind}.mark`);
  return svg(
    "g",
    { class: spaceClass(kind) },
    svg("rect", { x, y, width: S, height: S, rx: 5 }),
    mark ? svg("text", { x: x + S / 2, y: y + S - 6, class: "space-mark", text: mark }) : null,
  );
}

function legend(items) {
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

function chunks(n, size) {
  const out = [];
  for (let left = n; left > 0; left -= size) out.push(Math.min(size, left));
  return out;
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
    faces.length ? el("p", { class: "caption", text: faces.map((f) => `${faceMark(f)} ${t(`face.${f}`)}`).join(" · ") }) : null,
  );
}

const faceFill = (face) => (face === "floe" ? "#d8f1ff" : face === "blank" || face === "lifeguard" ? "#fff" : colourOf(face));
const faceMark = (face) => t(`face.${face}.mark`);

function pool(view) {
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
      out.push(svg("rect", { x: lx, y: y + 6, width: 26, height: cellH - 12, rx: 4, class: "lounger" }));
      const seat = lounger.bather ?? lounger.towel;
      if (seat !== null) {
        const info = view.seats.find((s) => s.seat === seat);
        const p = piece(seat, info?.colour, lx + 13, y + cellH / 2, 9);
        if (lounger.bather === null) p.setAttribute("class", "piece towel");
        out.push(p);
      }
    });
  });
  const width = x0 + cellW * colours.length + 4;
  const guard = view.lifeguard;
  return [
    svg("svg", { viewBox: `0 0 ${width} ${y0 + cellH * 4 + 6}`, role: "img", "aria-label": t("board") }, out),
    guard ? el("p", { class: "caption", text: t("pool.lifeguard", { space: guardSpace(guard.space) }) }) : null,
    el("p", { class: "caption", text: t("pool.chips", { n: view.pool_chips }) }),
    dice(view.dice),
  ];
}

function hatch() {
  return svg("pattern", { id: "hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, class: "hatch-line" }));
}

const guardSpace = (space) => (/^\d$/.test(space) ? t("pool.row", { row: space }) : t("pool.column", { colour: t(`colour.${space}`) }));

function trays(view) {
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

function floes(view) {
  const path = view.path;
  const perRow = 8;
  const size = 34;
  const out = [];
  const at = (position) => {
    const r = Math.floor((position - 1) / perRow);
    const c = (position - 1) % perRow;
    const col = r % 2 === 0 ? c : perRow - 1 - c;
    return { x: 8 + col * (size + 6), y: 34 + r * (size + 22) };
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
    svg("svg", { viewBox: `0 0 ${16 + perRow * (size + 6)} ${40 + rows * (size + 22)}`, role: "img", "aria-label": t("board") }, out),
    legend(["plain", "cracked", "tub"].map((kind) => [`floe floe-${kind}`, kind === "plain" ? "" : t(`floe.${kind}.mark`), t(`floe.${kind}`)])),
    dice(view.dice),
  ];
}
