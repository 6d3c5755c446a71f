// Sentences about the game, in the page's language: titles, attacks, counts, outcomes.

import { cardName, el, lang, seatName, t } from "./common.js";

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

/** The count as the table says it: "three ice cubes". */
export const countWords = (n) => t(`count.${n}`);

/** The last things that happened at the table, newest first, as the table told them. */
export function toldList(game, n = 4) {
  const lines = (game?.told ?? []).slice(-n).reverse();
  if (!lines.length) return [];
  return [
    el("h3", { class: "told-title", text: t("told") }),
    el("ol", { class: "told" }, lines.map((line) => el("li", { text: lang === "de" ? line.de : line.en }))),
  ];
}

/** How the game ended: "Tom wins!", or "You win!" on the winner's own page (`me`). */
export function outcomeLine(game, bySeat, me = null) {
  const winner = game.outcome?.winner;
  if (winner !== undefined && winner !== null && winner === me) return t("outcome.you_win");
  if (winner !== undefined && winner !== null) return t("outcome.winner", { name: nameOf(bySeat, winner) });
  return game.ended ? t("outcome.ended") : t("outcome.over");
}
