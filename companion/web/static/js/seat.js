// A seat's own view: its hand and the moves it may make, answered on the table at once.

import { boardFor, drawBoard } from "./board.js";
import { ApiError, api, cardName, complain, confirmButton, el, fill, follow, forgetToken, keep, kept, onNewLink, seatLabel, t, takeFragment } from "./common.js";
import { gauge } from "./ice.js";
import { actionLabel, oddsLines } from "./choices.js";
import { attackLine, gameTitle, instruction, nameOf, outcomeLine, toldList, waitingFor } from "./words.js";

let token = null;
let view = null;
let status = null;
let seen;
let chosen = null;
let buzzed = null;
let busy = false;
let asked = 0;
let controls = null;

/** A game's own controls on the seat page, loaded when that game is played. */
const CONTROLS = { "cool-am-pool": () => import("./pool.js") };

/** Ask for this seat's view again; the stream only says that something changed. Answers can
 * cross on the Wi-Fi, so only the answer to the latest question is drawn. */
async function refresh() {
  if (!token) return;
  const question = ++asked;
  try {
    const answer = await api("/api/view", { token });
    await boardFor(answer.game);
    const own = CONTROLS[answer.game] ? await CONTROLS[answer.game]() : null;
    if (question !== asked) return;
    view = answer;
    controls = own;
  } catch (error) {
    if (question !== asked) return;
    view = null;
    if (error instanceof ApiError && error.status === 401) {
      forgetToken("seat", token);
      return notice(t("seat.stale"));
    }
    if (error instanceof ApiError && error.code === "no-game") return notice(t("table.waiting"));
    complain(error);
    return;
  }
  draw();
}

/** Send one of this seat's legal actions, as it came. */
async function act(action) {
  if (busy) return;
  busy = true;
  const question = ++asked;
  try {
    const answer = await api("/api/actions", { token, method: "POST", body: action });
    chosen = null;
    if (question !== asked) return;
    view = answer;
    draw();
  } catch (error) {
    complain(error);
    refresh();
  } finally {
    busy = false;
  }
}

const button = (text, action, cls = "") => el("button", { type: "button", class: cls, onclick: () => act(action) }, text);

function draw() {
  if (!view) return;
  const me = view.viewer;
  const bySeat = Object.fromEntries(view.seats.map((s) => [s.seat, s]));
  const mine = bySeat[me];
  const legal = view.legal_actions ?? [];
  const game = status?.game;
  const moves = legal.some((a) => a.type !== "melted");
  const line = game?.over
    ? outcomeLine(game, bySeat)
    : moves
      ? view.turn_seat === me
        ? t("turn.yours")
        : t("turn.your_move")
      : waitingFor(view, bySeat);
  fill(
    document.getElementById("who"),
    el("h2", {}, seatLabel(me, mine?.name, mine?.colour)),
    el("p", { class: moves && !game?.over ? "turn mine" : "turn" }, gameTitle(view.game), " · ", line),
  );
  drawMine(me, legal);
  drawPrompt(me, legal, bySeat);
  drawHand(legal, bySeat);
  drawActions(legal, bySeat);
  fill(document.getElementById("told"), toldList(game));
  const pick = controls?.loungerPick(view, legal, draw) ?? null;
  fill(document.getElementById("board"), drawBoard(view, pick), controls?.loungerChoice(view, pick, bySeat, act));
}

function drawMine(me, legal) {
  const seat = status?.seats?.find((s) => s.seat === me);
  const melted = legal.find((a) => a.type === "melted" && a.seat === me);
  fill(
    document.getElementById("mine"),
    seat && status?.game?.name === "cool-runnings" ? gauge(seat.ice) : null,
    seat?.weigh_in === "requested" ? el("p", { class: "weigh-in", text: t("weigh_in.yours") }) : null,
    melted ? confirmButton(seat?.ice?.melted ? t("melted.proposed") : t("melted.mine"), () => act(melted)) : null,
  );
}

function drawPrompt(me, legal, bySeat) {
  const box = document.getElementById("prompt");
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
    for (const [face, options] of byFace(deflects)) {
      parts.push(el("p", { class: "choice-title", text: t("prompt.deflect", { card: `${cardName(face)} (${signed(face.move)})` }) }),
        el("div", { class: "choices" }, options.map((a) => button(nameOf(bySeat, a.target), a))));
    }
    if (take) parts.push(button(t("do.take-hit"), take, "secondary"));
  }
  if (attack && (done || wrong)) {
    parts.push(el("h3", { text: t("prompt.carry_out", { attack: cardName(attack), target: nameOf(bySeat, attack.target) }) }),
      el("p", { class: "instruction", text: instruction(attack) }),
      done ? button(t("do.attack-done"), done) : null,
      wrong ? button(t("do.wrong-guess"), wrong, "secondary") : null);
  }
  box.hidden = parts.length === 0;
  fill(box, parts);
}

const signed = (n) => `${n > 0 ? "+" : "−"}${Math.abs(n)}`;

/** The deflections by the face of their card: two cards alike in the hand are one choice, the
 * first of them played. */
function byFace(deflects) {
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

function drawHand(legal, bySeat) {
  const hand = view.hand ?? [];
  const box = document.getElementById("hand");
  if (!view.hand) return fill(box);
  const plays = legal.filter((a) => a.type === "play-attack" || a.type === "play-move");
  if (chosen !== null && !plays.some((a) => a.card === chosen)) chosen = null;
  fill(
    box,
    el("h3", { text: t("seat.hand") }),
    el("div", { class: "cards" }, hand.map((c) => card(c, plays.some((a) => a.card === c.id)))),
    chosen !== null ? choices(plays.filter((a) => a.card === chosen), bySeat) : plays.length ? el("p", { class: "hint", text: t("seat.pick_card") }) : null,
  );
}

function card(c, playable) {
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
        draw();
      },
    },
    el("span", { class: "card-attack", text: cardName(c) }),
    el("span", { class: `card-move ${forwards ? "forwards" : "backwards"}` },
      `${signed(c.move)} `, forwards ? t("card.forwards") : t("card.backwards")),
  );
}

function choices(plays, bySeat) {
  const attacks = plays.filter((a) => a.type === "play-attack");
  const moves = plays.filter((a) => a.type === "play-move");
  const face = view.hand.find((c) => c.id === chosen);
  return el(
    "div",
    { class: "choice" },
    attacks.length
      ? [el("p", { class: "choice-title", text: t("play.attack", { attack: cardName(face) }) }),
          el("div", { class: "choices" }, attacks.map((a) => button(nameOf(bySeat, a.target), a)))]
      : el("p", { class: "hint", text: t("play.no_target") }),
    el("p", { class: "choice-title", text: t("play.move", { n: signed(face.move) }) }),
    el("div", { class: "choices" }, moves.map((a) => button(nameOf(bySeat, a.piece), a, "secondary"))),
  );
}

const HANDLED = new Set(["play-attack", "play-move", "deflect", "take-hit", "attack-done", "wrong-guess", "melted"]);

function drawActions(legal, bySeat) {
  const rest = legal.filter((a) => !HANDLED.has(a.type) && !controls?.HANDLED.has(a.type));
  const odds = oddsLines(view);
  const forced = rest.length && view.must_roll?.length ? view.must_roll[view.must_roll.length - 1] : null;
  fill(
    document.getElementById("actions"),
    forced ? el("p", { class: "hint", text: t(`daddy.must_roll.${forced}`) }) : null,
    odds.length
      ? el("section", { class: "odds" }, el("h3", { text: t("odds.title") }),
          el("dl", {}, odds.map(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })])))
      : null,
    controls?.diceChoice(view, legal, act, draw),
    rest.length ? el("div", { class: "choices big" }, rest.map((a) => button(actionLabel(a, view, bySeat), a))) : null,
    controls?.boardHint(legal),
  );
}

function onStatus(next) {
  status = next;
  const game = next.game;
  const held = next.seats.filter((s) => s.joined).map((s) => s.seat);
  const mark = game ? `${game.commitment}:${game.changes}:${game.over}:${held}` : null;
  if (mark !== seen) {
    seen = mark;
    refresh();
  } else if (view) {
    drawMine(view.viewer, view.legal_actions ?? []);
  }
}

/** A scanned link's one-time claim exchanged for a seat token, else the one kept; a used claim
 * is most often this phone's own link opened again. */
async function seatToken() {
  const claim = location.hash.match(/^#claim=(.+)/)?.[1];
  while (claim) {
    try {
      const answer = await api("/api/claim", { method: "POST", body: { claim } });
      takeFragment();
      keep("seat", answer.token);
      return answer.token;
    } catch (error) {
      if (error.status === 0) {
        complain(error);
        await new Promise((resume) => setTimeout(resume, 3000));
        continue;
      }
      takeFragment();
      if (error.status === 410 && kept("seat")) break;
      return notice(error.status === 410 ? t("seat.used") : t("seat.stale"));
    }
  }
  return kept("seat");
}

function notice(text) {
  fill(document.getElementById("who"), el("p", { class: "notice", text }));
  return null;
}

onNewLink();
token = await seatToken();
if (token) follow(onStatus);
else document.getElementById("link").hidden = true;
