// Cool am Pool on the pages: the pool's board; on a seat's phone the dice to set aside picked by tapping them, and the lounger
// chosen on the board itself, with what taking it means. One control a die, one a lounger. Each
// seat's score so far, and the results once the game is over.

import { el, t } from "../common.js";
import { nameOf } from "../words.js";
import { resultsPanel, scoreLine } from "./scores.js";

export { draw } from "./pool-board.js";

/** A seat's score so far: its points, its chips (four at most), its bathers and towels left. */
export function score(seatNumber, view) {
  const seat = view.seats.find((s) => s.seat === seatNumber);
  if (!seat) return null;
  return scoreLine(seatNumber, [
    t("results.points", { n: seat.points_now }),
    t("pool.score.chips", { chips: seat.chips, most: view.chips_at_most }),
    t("pool.score.bathers", { n: seat.bathers_in_supply }),
    t("pool.score.towels", { n: seat.towels_in_supply }),
  ]);
}

/** Where points came from: loungers by their value, bathers on foreign towels, chips. */
const part = (p) =>
  p.what === "lounger"
    ? t("pool.part.lounger", { n: p.count, each: p.each })
    : p.what === "foreign-towel"
      ? t("pool.part.foreign", { n: p.count })
      : t("pool.part.chips", { n: p.count });

/** The ranking once the game is over, a tie on points broken by the bathers on the board. */
export const results = (view, bySeat) =>
  resultsPanel(view, bySeat, {
    part,
    tie: (counts) => t("pool.tie", { counts }),
    level: (counts) => t("pool.tie.level", { counts }),
  });

/** A lounger in words: "red 3a", "5 points b". */
function lounger(view, id) {
  const found = view.board?.loungers?.find((l) => l.id === id);
  if (!found) return `#${id}`;
  const mark = /[a-z]$/.test(found.label) ? found.label.slice(-1) : "";
  return found.colour === null
    ? t("pool.lounger.five", { mark })
    : t("pool.lounger", { colour: t(`colour.${found.colour}`), row: found.row, mark });
}

/** The faces of some dice in words: "red ×2, blue". */
function faces(view, ids) {
  const counts = new Map();
  for (const id of ids) {
    const face = view.dice?.find((d) => d.die === id)?.showing ?? "?";
    counts.set(face, (counts.get(face) ?? 0) + 1);
  }
  return [...counts].map(([face, n]) => (n > 1 ? `${t(`face.${face}`)} ×${n}` : t(`face.${face}`))).join(", ");
}

/** The values its actions' button texts name. */
export const words = (action, view) => ({
  lounger: lounger(view, action.lounger),
  dice: action.dice ? faces(view, action.dice) : "",
});

/** What this seat has picked so far; forgotten when the game moves on. */
const picked = { after: null, dice: new Set(), lounger: null };

/** The actions these controls offer, which the page's plain buttons leave out. */
export const HANDLED = new Set(["pool-set-aside", "pool-place-towel", "pool-occupy"]);

function current(legal) {
  const after = legal[0]?.after ?? null;
  if (picked.after !== after) Object.assign(picked, { after, dice: new Set(), lounger: null });
}

const sameDice = (a, b) => a.length === b.length && a.every((d, i) => d === b[i]);

/** The dice of the roll as buttons: a colour die that may be set aside toggles, and brings the
 * button into view that then sets the picked ones aside. A roll with no colour sets its
 * lifeguards aside, one button. */
export function controls({ view, legal, act, redraw, reveal }) {
  current(legal);
  const asides = legal.filter((a) => a.type === "pool-set-aside");
  if (!asides.length) return null;
  const none = asides.find((a) => a.dice.length === 0);
  if (none) return el("div", { class: "choices big" }, el("button", { type: "button", onclick: () => act(none) }, t("do.pool-set-aside.none")));
  const free = new Set(asides.flatMap((a) => a.dice));
  const chosen = [...picked.dice].sort((a, b) => a - b);
  const action = asides.find((a) => sameDice(a.dice, chosen));
  const die = (d) =>
    el("button", {
      type: "button",
      class: `die-pick face-${d.showing}`,
      "data-die": d.die,
      disabled: !free.has(d.die),
      "aria-pressed": String(picked.dice.has(d.die)),
      onclick: () => {
        picked.dice.has(d.die) ? picked.dice.delete(d.die) : picked.dice.add(d.die);
        redraw();
        reveal(".dice-pick .choices");
      },
    }, t(`face.${d.showing}`));
  return el("section", { class: "dice-pick" },
    el("p", { class: "choice-title", text: t("pool.pick_dice") }),
    el("div", { class: "dice-row" }, view.dice.filter((d) => !d.aside && d.showing).map(die)),
    el("div", { class: "choices big" },
      el("button", { type: "button", disabled: !action, onclick: () => action && act(action) },
        action ? t("do.pool-set-aside", { dice: faces(view, chosen) }) : t("pool.pick_first"))));
}

const onTheBoard = (legal) => legal.filter((a) => a.type === "pool-place-towel" || a.type === "pool-occupy");

/** Beside the buttons: where the lounger is chosen, when one is to be. */
export const hint = ({ legal }) => (onTheBoard(legal).length ? el("p", { class: "hint", text: t("pool.on_the_board") }) : null);

/** The loungers this seat may take (or lay a towel on) now, for the board to make tappable. */
export function pick({ legal, redraw, reveal }) {
  current(legal);
  const cells = onTheBoard(legal);
  if (!cells.length) return null;
  const actions = new Map(cells.map((a) => [a.lounger, a]));
  if (!actions.has(picked.lounger)) picked.lounger = null;
  return {
    actions,
    chosen: picked.lounger,
    pick: (id) => {
      picked.lounger = picked.lounger === id ? null : id;
      redraw();
      reveal(".lounger-choice");
    },
  };
}

/** Under the board: what taking the chosen lounger means, and the one button that does it. */
export function pickChoice({ view, bySeat, act }, pick) {
  if (!pick) return null;
  if (pick.chosen === null) return el("p", { class: "hint", text: t("pool.pick_lounger") });
  const action = pick.actions.get(pick.chosen);
  const where = lounger(view, pick.chosen);
  const taking = view.can_take?.find((c) => c.lounger === pick.chosen);
  const said = action.type === "pool-place-towel"
    ? t("pool.lay", { lounger: where })
    : !taking
      ? t("do.pool-occupy", { lounger: where })
      : t(`pool.take.${taking.how}${taking.how === "foreign" && !taking.chips ? ".no_chips" : ""}`, {
        lounger: where,
        other: nameOf(bySeat, taking.other),
        chips: taking.chips,
        points: taking.points,
      });
  return el("div", { class: "choice lounger-choice" },
    el("p", { class: "choice-title", text: said }),
    el("div", { class: "choices big" },
      el("button", { type: "button", onclick: () => act(action) }, t("pool.do")),
      el("button", { type: "button", class: "secondary", onclick: () => pick.pick(pick.chosen) }, t("pool.other"))));
}
