// The words on the buttons of what a seat or the referee may do, and the odds of a choice.

import { has, number, t } from "./common.js";
import { gameOf } from "./game.js";
import { nameOf } from "./words.js";

/** Whose action a referee's button takes, for the words on it: the seat on turn, unless the
 * game says otherwise; nobody's for a melted cube or the end of a count. */
export function actingFor(action, view) {
  if (action.type === "melted" || action.type === "count-finished") return null;
  return gameOf(view.game)?.actingFor?.(action, view) ?? view.turn_seat;
}

/** The words on an action's button; any action the table offers gets one. */
export function actionLabel(action, view, bySeat) {
  const vars = {
    victim: nameOf(bySeat, action.victim),
    seat: nameOf(bySeat, action.seat),
    ...gameOf(view.game)?.words?.(action, view),
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
