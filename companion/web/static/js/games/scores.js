// What the games that count a score share on the pages: a seat's score in one short line, and
// the results panel once the game is over, both from the words each game gives its own parts.

import { el, listed, seatLabel, t } from "../common.js";
import { nameOf } from "../words.js";

/** A seat's score in one line, its pieces apart: "7 points · 2 chips of 4". */
export const scoreLine = (seat, pieces) =>
  el("p", { class: "score", "data-seat": seat }, pieces.filter(Boolean).map((piece, i) => [i ? " · " : null, el("span", { text: piece })]));

/** Seats' names as one list in words: "Mia and Tom". */
const names = (bySeat, seats) => listed(seats.map((s) => nameOf(bySeat, s)));

/** Counts seat by seat, the most first: "Tom (8), Mia (7)". */
const counted = (bySeat, counts) =>
  Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([seat, n]) => `${nameOf(bySeat, Number(seat))} (${n})`)
    .join(", ");

/**
 * The results panel of a game over by its rules (null before, and for a game the referee
 * ended): every seat in its place, its points where the game counts them (`points`: false for a
 * game that counts none) and where they came from (`part(part)`: a part in the game's words),
 * and for each set of seats level on points the count that was to tell them apart
 * (`tie(counts)`: the tie-break said in the game's words, `counts` as "Tom (8), Mia (7)"; `level`
 * when that count is level too).
 */
export function resultsPanel(view, bySeat, { part, tie = null, level = null, points = true }) {
  const outcome = view?.outcome;
  if (!outcome?.ranking) return null;
  const row = (place) =>
    el(
      "li",
      { class: `place${place.place === 1 ? " first" : ""}`, "data-seat": place.seat, "data-place": place.place },
      el("span", { class: "place-number", text: `${place.place}.` }),
      " ",
      seatLabel(place.seat, bySeat[place.seat]?.name, bySeat[place.seat]?.colour),
      points ? [" ", el("strong", { class: "points", text: t("results.points", { n: place.points }) })] : null,
      el("span", { class: "parts", text: place.parts.map((p) => (points && p.points !== undefined ? `${part(p)} (${p.points})` : part(p))).join(" · ") }),
    );
  const ties = (outcome.tie_breaks ?? []).map((broken) => {
    const counts = counted(bySeat, broken.counts);
    const same = new Set(Object.values(broken.counts)).size === 1;
    const seats = Object.keys(broken.counts).map(Number);
    return el(
      "p",
      { class: "tie-break" },
      t("results.tie", { names: names(bySeat, seats), n: broken.points }),
      " ",
      same ? level?.(counts) : tie?.(counts),
    );
  });
  return el(
    "section",
    { class: "results", "aria-label": t("results.title") },
    el("h3", { text: t("results.title") }),
    el("ol", { class: "ranking" }, outcome.ranking.map(row)),
    ties,
  );
}
