// A seat's own view: its hand and the moves it may make, answered on the table at once.

import { ApiError, api, complain, confirmButton, el, fill, follow, forgetToken, keep, kept, listed, onNewLink, seatLabel, seatName, t, takeFragment } from "./common.js";
import { drawBoard, gameFor } from "./game.js";
import { iceOf } from "./ice.js";
import { actionLabel, oddsLines } from "./choices.js";
import { gameTitle, outcomeLine, toldList, waitingFor } from "./words.js";
import { speaker } from "./speech.js";

let token = null;
let view = null;
let status = null;
let seen;
/** Whether the game was over, and which seats a phone held, at the last status seen. */
let seenOver = null;
let seenHeld = null;
let busy = false;
let asked = 0;
let askAgain = null;
/** How long a view that could not be fetched (a Wi-Fi blip) waits before it is asked again. */
const ASK_AGAIN_MS = 2000;
let game = null;
/** Says this seat's own count aloud, once the seat page follows the table. */
let hear = () => {};
/** Whether this phone opened the odds: one line until tapped, and kept open through updates. */
let oddsOpen = false;

/** Ask for this seat's view again; the stream only says that something changed. Answers can
 * cross on the Wi-Fi, so only the answer to the latest question is drawn. */
async function refresh() {
  if (!token) return;
  const question = ++asked;
  try {
    const answer = await api("/api/view", { token });
    const own = await gameFor(answer.game);
    if (question !== asked) return;
    view = answer;
    game = own;
  } catch (error) {
    if (question !== asked) return;
    view = null;
    if (error instanceof ApiError && error.status === 401) {
      forgetToken("seat", token);
      return notice(t("seat.stale"));
    }
    if (error instanceof ApiError && error.code === "no-game") return notice(t("table.waiting"));
    complain(error);
    // the status that asked for it is kept: ask again soon, as no other change may come
    seen = null;
    clearTimeout(askAgain);
    askAgain = setTimeout(keepUp, ASK_AGAIN_MS);
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
    if (question !== asked) return;
    view = answer;
    draw();
    revealNext();
  } catch (error) {
    complain(error);
    refresh();
  } finally {
    busy = false;
    keepUp();
  }
}

const button = (text, action, cls = "") => el("button", { type: "button", class: cls, onclick: () => act(action) }, text);

/** Bring what a tap just opened into view, on a phone whose screen it lies below: smoothly,
 * or at once on a phone set to reduce motion. */
function reveal(selector) {
  const behavior = matchMedia("(prefers-reduced-motion: reduce)").matches ? "instant" : "smooth";
  document.querySelector(selector)?.scrollIntoView({ block: "nearest", behavior });
}

/** After this seat's own move: the choice it leaves the seat (a roll's), brought into view. */
function revealNext() {
  if (!(view.legal_actions ?? []).some((a) => a.type !== "melted")) return;
  const next = ["prompt", "actions"].find((part) => document.querySelector(`#${part}:not([hidden]) button:enabled`));
  if (next) reveal(`#${next}`);
}

function draw() {
  if (!view) return;
  const me = view.viewer;
  const bySeat = Object.fromEntries(view.seats.map((s) => [s.seat, s]));
  const mine = bySeat[me];
  const legal = view.legal_actions ?? [];
  const summary = status?.game;
  const moves = legal.some((a) => a.type !== "melted");
  const line = summary?.over
    ? outcomeLine(summary, bySeat, me)
    : moves
      ? view.turn_seat === me
        ? t("turn.yours")
        : t("turn.your_move")
      : waitingFor(view, bySeat);
  fill(
    document.getElementById("who"),
    el("h2", {}, seatLabel(me, mine?.name, mine?.colour)),
    el("p", { class: moves && !summary?.over ? "turn mine" : "turn" }, gameTitle(view.game), " · ", line),
  );
  const seat = { view, legal, bySeat, me, act, redraw: draw, reveal };
  drawMine(me, legal);
  const prompt = document.getElementById("prompt");
  fill(prompt, game?.prompt?.(seat));
  prompt.hidden = !prompt.hasChildNodes();
  fill(document.getElementById("hand"), game?.hand?.(seat));
  drawActions(seat);
  fill(document.getElementById("told"), toldList(summary));
  const pick = game?.pick?.(seat) ?? null;
  fill(document.getElementById("board"), drawBoard(view, pick), pick ? game.pickChoice(seat, pick) : null);
  document.body.dataset.changes = view.changes; // the game's change drawn: what a waiting test reads
}

/** This seat's own part near the top: its score in the game, the results once the game is over,
 * and where the game uses the ice, its cube. */
function drawMine(me, legal) {
  const seat = status?.seats?.find((s) => s.seat === me);
  const melted = legal.find((a) => a.type === "melted" && a.seat === me);
  const running = status?.game && !status.game.over;
  const out = view.seats.find((s) => s.seat === me)?.in_game === false;
  const bySeat = Object.fromEntries(view.seats.map((s) => [s.seat, s]));
  fill(
    document.getElementById("mine"),
    game?.score?.(me, view),
    status?.game?.over ? game?.results?.(view, bySeat) : null,
    out && running ? el("p", { class: "out", text: t("seat.out", { others: onGoing(me) }) }) : null,
    seat && !out && status?.game?.ice ? iceOf(seat, running) : null,
    running && !out && seat?.weigh_in === "requested" ? el("p", { class: "weigh-in", text: t("weigh_in.yours") }) : null,
    melted ? confirmButton(seat?.ice?.melted ? t("melted.proposed") : t("melted.mine"), () => act(melted)) : null,
  );
}

/** The seats still playing, other than `me`, as a list in words: "Mia and Oma". */
function onGoing(me) {
  const names = view.seats.filter((s) => s.seat !== me && s.in_game !== false).map((s) => seatName(s.seat, s.name));
  return listed(names);
}

/** The moves of the game's own controls, then a plain button for each other legal action (a
 * melted cube has its own, under the ice). */
function drawActions(seat) {
  const { legal, bySeat } = seat;
  const rest = legal.filter((a) => a.type !== "melted" && !game?.HANDLED?.has(a.type));
  const odds = oddsLines(view);
  fill(
    document.getElementById("actions"),
    game?.hint?.(seat),
    odds.length
      ? el("details", { class: "odds", open: oddsOpen, ontoggle: (event) => (oddsOpen = event.target.open) },
          el("summary", { text: t("odds.title") }),
          el("dl", {}, odds.map(([k, v]) => [el("dt", { text: k }), el("dd", { text: v })])))
      : null,
    game?.controls?.(seat),
    rest.length ? el("div", { class: "choices big" }, rest.map((a) => button(actionLabel(a, view, bySeat), a))) : null,
  );
}

function onStatus(next) {
  status = next;
  if (!busy) keepUp(); // else once the action is answered: its status may come first
  hear(next);
}

/** Draw the latest status, asking for a new view only when this phone's may be out of date. */
function keepUp() {
  const next = status;
  if (!next) return;
  const summary = next.game;
  const held = next.seats.filter((s) => s.joined).map((s) => s.seat).join();
  const mark = summary ? `${summary.commitment}:${summary.changes}:${summary.over}:${held}` : null;
  if (mark !== seen) {
    // the view this phone holds may already be of this change: its own action's answer
    const current = view && summary && view.commitment === summary.commitment
      && view.changes === summary.changes && seenOver === summary.over && seenHeld === held;
    [seen, seenOver, seenHeld] = [mark, summary?.over ?? null, held];
    if (current) draw(); // the status has moved on: what it shows around the view too
    else refresh();
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

/** A notice in place of the seat: nothing of a game this phone no longer plays stays shown. */
function notice(text) {
  fill(document.getElementById("who"), el("p", { class: "notice", text }));
  for (const part of ["prompt", "mine", "hand", "actions", "told", "board"]) fill(document.getElementById(part));
  document.getElementById("prompt").hidden = true;
  return null;
}

onNewLink();
token = await seatToken();
if (token) {
  hear = speaker({ counts: (count) => count.seat === view?.viewer, calls: false });
  follow(onStatus);
} else document.getElementById("link").hidden = true;
