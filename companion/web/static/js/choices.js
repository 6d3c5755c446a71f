// The words on the buttons of what a seat or the referee may do, and the odds of a choice.

import { has, number, t } from "./common.js";
import { nameOf } from "./words.js";

/** Whose action a referee's button takes, for the words on it. */
export function actingFor(action, view) {
  if (action.type === "take-hit") return view.attack?.target;
  if (action.type === "attack-done" || action.type === "wrong-guess") return view.attack?.carrier;
  if (action.type === "melted" || action.type === "count-finished") return null;
  return view.turn_seat;
}

/** A lounger in words: "red 3a", "5 points b". */
export function lounger(view, id) {
  const found = view.board?.loungers?.find((l) => l.id === id);
  if (!found) return `#${id}`;
  const mark = /[a-z]$/.test(found.label) ? found.label.slice(-1) : "";
  return found.colour === null
    ? t("pool.lounger.five", { mark })
    : t("pool.lounger", { colour: t(`colour.${found.colour}`), row: found.row, mark });
}

/** The faces of some dice in words: "red ×2, blue". */
export function faces(view, ids) {
  const counts = new Map();
  for (const id of ids) {
    const face = view.dice?.find((d) => d.die === id)?.showing ?? "?";
    counts.set(face, (counts.get(face) ?? 0) + 1);
  }
  return [...counts].map(([face, n]) => (n > 1 ? `${t(`face.${face}`)} ×${n}` : t(`face.${face}`))).join(", ");
}

/** The words on an action's button; any action the table offers gets one. */
export function actionLabel(action, view, bySeat) {
  const vars = {
    lounger: lounger(view, action.lounger),
    dice: action.dice ? faces(view, action.dice) : "",
    tray: action.tray,
    direction: action.direction ? t(`direction.${action.direction}`) : "",
    victim: nameOf(bySeat, action.victim),
    seat: nameOf(bySeat, action.seat),
  };
  const key = `do.${action.type}`;
  if (has(key)) return t(key, vars);
  const rest = Object.entries(action).filter(([k]) => k !== "type" && k !== "by");
  return `${action.type} ${rest.map(([k, v]) => `${k} ${v}`).join(", ")}`.trim();
}

const percent = (p) => `${number(p * 100, p < 0.1 && p > 0 ? 1 : 0)} %`;

/** The odds a dice game's view carries, as lines: what may happen, and its chance. */
export function oddsLines(view) {
  const odds = view.odds;
  if (!odds?.chances?.length) return [];
  return [
    [t("odds.dice_in_hand"), String(odds.dice_in_hand)],
    ...odds.chances.map((c) => [
      t(`odds.${view.game}.${c.key}`, { colour: c.colour ? t(`colour.${c.colour}`) : "", n: c.at_least ?? "" }),
      percent(c.p),
    ]),
  ];
}
