// Cool Runnings' track: its parts in rows, the spaces, the pieces at the start and over the line.

import { piece, svg, t } from "../common.js";
import { legend, ways } from "../drawing.js";

const S = 36;
const GAP = 4;
const LEFT = 28;

export function draw(view) {
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

function chunks(n, size) {
  const out = [];
  for (let left = n; left > 0; left -= size) out.push(Math.min(size, left));
  return out;
}
