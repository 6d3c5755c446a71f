// Cool Runnings on the pages: the track, and on a seat's phone its hand of cards, the attack it
// is in (deflect, take the hit, carry it out) and the card chosen with what it may do.

import { cardName, el, t } from "../common.js";
import { attackLine, instruction, nameOf } from "../words.js";

export { draw } from "./track.js";

/** The actions these controls offer, which the page's plain buttons leave out. */
export const HANDLED = new Set(["play-attack", "play-move", "deflect", "take-hit", "attack-done", "wrong-guess"]);

/** Whose action a referee's button takes in an attack: the target's or the carrier's. */
export function actingFor(action, view) {
  if (action.type === "take-hit") return view.attack?.target;
  if (action.type === "attack-done" || action.type === "wrong-guess") return view.attack?.carrier;
  return null;
}

/** The card this seat tapped, until it is played or no longer playable. */
let chosen = null;
/** The attack this phone last buzzed for: it buzzes once an attack, not once a redraw. */
let buzzed = null;

const button = (seat, text, action, cls = "") => el("button", { type: "button", class: cls, onclick: () => seat.act(action) }, text);
const signed = (n) => `${n > 0 ? "+" : "−"}${Math.abs(n)}`;

/** The attack this seat is in: deflect or take the hit, or carry it out. */
export function prompt(seat) {
  const { view, legal, bySeat } = seat;
  const attack = view.attack;
  const deflects = legal.filter((a) => a.type === "deflect");
  const take = legal.find((a) => a.type === "take-hit");
  const done = legal.find((a) => a.type === "attack-done");
  const wrong = legal.find((a) => a.type === "wrong-guess");
  const parts = [];
  if (attack && (deflects.length || take)) {
    const key = `${view.turn}:${attack.chain.length}`;
    if (buzzed !== key) {
      buzzed = key;
      navigator.vibrate?.([200, 100, 200]);
    }
    parts.push(el("h3", { text: t("prompt.attacked", { attack: cardName(attack) }) }),
      el("p", { text: attackLine(attack, bySeat, { stage: deflects.length > 0 }) }),
      deflects.length ? null : el("p", { text: t("prompt.no_deflect") }));
    for (const [face, options] of byFace(view, deflects)) {
      parts.push(el("p", { class: "choice-title", text: t("prompt.deflect", { card: `${cardName(face)} (${signed(face.move)})` }) }),
        el("div", { class: "choices" }, options.map((a) => button(seat, nameOf(bySeat, a.target), a))));
    }
    if (take) parts.push(button(seat, t("do.take-hit"), take, "secondary"));
  }
  if (attack && (done || wrong)) {
    parts.push(el("h3", { text: t("prompt.carry_out", { attack: cardName(attack), target: nameOf(bySeat, attack.target) }) }),
      el("p", { class: "instruction", text: instruction(attack) }),
      done ? button(seat, t("do.attack-done"), done) : null,
      wrong ? button(seat, t("do.wrong-guess"), wrong, "secondary") : null);
  }
  return parts;
}

/** The deflections by the face of their card: two cards alike in the hand are one choice, the
 * first of them played. */
function byFace(view, deflects) {
  const out = new Map();
  const firstOf = new Map();
  for (const a of deflects) {
    const card = view.hand.find((c) => c.id === a.card);
    if (!card) continue;
    const face = `${card.attack}:${card.move}`;
    if (!firstOf.has(face)) firstOf.set(face, card);
    if (firstOf.get(face).id !== card.id) continue;
    out.set(card, [...(out.get(card) ?? []), a]);
  }
  return out;
}

/** This seat's hand: a card tapped shows what it may do (attack whom, move whose piece). */
export function hand(seat) {
  const { view, legal, bySeat, me } = seat;
  if (!view.hand || bySeat[me]?.in_game === false) return null;
  const plays = legal.filter((a) => a.type === "play-attack" || a.type === "play-move");
  if (chosen !== null && !plays.some((a) => a.card === chosen)) chosen = null;
  return [
    el("h3", { text: t("seat.hand") }),
    el("div", { class: "cards" }, view.hand.map((c) => card(seat, c, plays.some((a) => a.card === c.id)))),
    chosen !== null
      ? choices(seat, plays.filter((a) => a.card === chosen), bySeat)
      : plays.length ? el("p", { class: "hint", text: t("seat.pick_card") }) : null,
  ];
}

function card(seat, c, playable) {
  const forwards = c.move > 0;
  return el(
    "button",
    {
      type: "button",
      class: `card${chosen === c.id ? " chosen" : ""}`,
      disabled: !playable,
      "aria-pressed": String(chosen === c.id),
      onclick: () => {
        chosen = chosen === c.id ? null : c.id;
        seat.redraw();
        seat.reveal(".choice");
      },
    },
    el("span", { class: "card-attack", text: cardName(c) }),
    el("span", { class: `card-move ${forwards ? "forwards" : "backwards"}` },
      `${signed(c.move)} `, forwards ? t("card.forwards") : t("card.backwards")),
  );
}

function choices(seat, plays, bySeat) {
  const attacks = plays.filter((a) => a.type === "play-attack");
  const moves = plays.filter((a) => a.type === "play-move");
  const face = seat.view.hand.find((c) => c.id === chosen);
  return el(
    "div",
    { class: "choice" },
    attacks.length
      ? [el("p", { class: "choice-title", text: t("play.attack", { attack: cardName(face) }) }),
          el("div", { class: "choices" }, attacks.map((a) => button(seat, nameOf(bySeat, a.target), a)))]
      : el("p", { class: "hint", text: t("play.no_target") }),
    el("p", { class: "choice-title", text: t("play.move", { n: signed(face.move) }) }),
    el("div", { class: "choices" }, moves.map((a) => button(seat, nameOf(bySeat, a.piece), a, "secondary"))),
  );
}
