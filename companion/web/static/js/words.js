// Sentences about the game, in the page's language: titles, attacks, counts, outcomes, actions, odds.

import { cardName, has, lang, number, seatName, t } from "./common.js";

export const gameTitle = (name) => t(`game.${name}`);

export const nameOf = (bySeat, seat) => seatName(seat, bySeat[seat]?.name);

/** "Water bath: Karen → Tom → Mary → Tom", and what happens now (unless `stage` is false). */
export function attackLine(attack, bySeat, { stage: told = true } = {}) {
  const title = cardName(attack);
  const rounds = attack.round !== null && attack.round !== undefined && attack.stage === "carry-out";
  const stage = !told ? "" : t(`stage.${attack.stage}${rounds ? ".round" : ""}`, {
    target: nameOf(bySeat, attack.target),
    carrier: nameOf(bySeat, attack.carrier),
    round: attack.round,
  });
  if (attack.source === "lava") {
    return `${t("attack.lava", { attack: title, target: nameOf(bySeat, attack.target) })} ${stage}`;
  }
  const chain = attack.chain.length ? [attack.chain[0].by, ...attack.chain.map((c) => c.target)] : [];
  return `${title}: ${chain.map((s) => nameOf(bySeat, s)).join(" → ")}. ${stage}`.trim();
}

export const instruction = (attack) => (lang === "de" && attack.instruction_de ? attack.instruction_de : attack.instruction);

/** What the table waits for now, when it is not this seat: "Waiting for Tom to deflect." */
export function waitingFor(view, bySeat) {
  const attack = view.attack;
  if (attack?.stage === "deflect") return t("wait.deflect", { name: nameOf(bySeat, attack.target) });
  if (attack?.stage === "count") return t("wait.count", { name: nameOf(bySeat, attack.target) });
  if (attack?.stage === "carry-out") return t("wait.carry_out", { name: nameOf(bySeat, attack.carrier) });
  return t("wait.turn", { name: nameOf(bySeat, view.turn_seat) });
}

/** Whose action a referee's button takes, for the words on it. */
export function actingFor(action, view) {
  if (action.type === "take-hit") return view.attack?.target;
  if (action.type === "attack-done" || action.type === "wrong-guess") return view.attack?.carrier;
  if (action.type === "melted" || action.type === "count-finished") return null;
  return view.turn_seat;
}

/** The count as the table says it: "three ice cubes". */
export const countWords = (n) => t(`count.${n}`);

export function outcomeLine(game, bySeat) {
  const winner = game.outcome?.winner;
  if (winner !== undefined && winner !== null) return t("outcome.winner", { name: nameOf(bySeat, winner) });
  return game.ended ? t("outcome.ended") : t("outcome.over");
}

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
