// The table view: the board, whose turn it is, the attack and the count, every seat's ice or score,
// and the results once the game is over.

import { api, el, fill, follow, seatLabel, seatName, t } from "./common.js";
import { drawBoard, gameFor, gameOf } from "./game.js";
import { seatCard } from "./card.js";
import { attackLine, countWords, gameTitle, instruction, outcomeLine, toldList } from "./words.js";
import { speaker } from "./speech.js";

const CURVES_EVERY_MS = 30000;
const hear = speaker();

let curves = { start: null, seats: [] };
let curvesFor = null;
let curvesAt = -Infinity;
let drawnBoard = "";
let drawnFair = null;
let latest = null;
let tonight = "";
let tonightFor;

/** The melt curves, asked for again when a game starts and every half minute. */
async function refreshCurves(status) {
  const game = status.game?.commitment ?? null;
  if (game === curvesFor && performance.now() - curvesAt < CURVES_EVERY_MS) return;
  curvesFor = game;
  curvesAt = performance.now();
  try {
    curves = await api("/api/curves");
    draw(latest);
  } catch {
    curvesAt = -Infinity;
  }
}

async function show(status) {
  await gameFor(status.game?.name);
  latest = status;
  draw(status);
  hear(status);
  refreshCurves(status);
  refreshTonight(status);
  showRefereeCode(status.referee_code);
}

/** Who won what tonight ("Tonight: Jürgen 2, Mia 1"), asked for again whenever a game starts or
 * ends; shown while no game is running. */
async function refreshTonight(status) {
  const game = status.game;
  const mark = game && !game.over ? null : `${game?.commitment}:${game?.over}`;
  if (mark === tonightFor) return;
  tonightFor = mark;
  if (mark === null) return;
  try {
    const standings = await api("/api/standings");
    const winners = standings.players.filter((p) => p.won > 0);
    const said = winners.map((p) => t("tonight.player", { name: seatName(/\d+$/.exec(p.name)?.[0], p.name), n: p.won }));
    tonight = said.length ? t("tonight", { players: said.join(", ") }) : "";
    draw(latest);
  } catch {
    tonightFor = undefined;
  }
}

let codeShown = false;

/** Seat 1's button held down: the referee's page as a QR code, for as long as the table
 * says (30 s), so that a phone opens it without anyone typing the token. */
async function showRefereeCode(wanted) {
  const box = document.getElementById("referee-code");
  if (wanted === codeShown) return;
  codeShown = wanted;
  if (!wanted) {
    box.hidden = true;
    fill(box);
    return;
  }
  try {
    const shown = await api("/api/referee-code");
    const code = new DOMParser().parseFromString(shown.qr_svg, "image/svg+xml").documentElement;
    code.setAttribute("role", "img");
    code.setAttribute("aria-label", t("referee_code.title"));
    fill(box, el("h2", { text: t("referee_code.title") }), document.importNode(code, true), el("p", { text: t("referee_code.hint") }));
    box.hidden = !codeShown;
  } catch {
    codeShown = false;
  }
}

function draw(status) {
  const game = status.game;
  const view = game?.view ?? null;
  const bySeat = Object.fromEntries(status.seats.map((s) => [s.seat, s]));
  fill(document.getElementById("game"), headline(status, bySeat));
  fill(document.getElementById("told"), toldList(game, 3));
  showCount(status.count, bySeat);
  const boardText = JSON.stringify(view);
  if (boardText !== drawnBoard) {
    drawnBoard = boardText;
    fill(document.getElementById("board"), drawBoard(view));
  }
  const pointsOf = Object.fromEntries(curves.seats.map((s) => [s.seat, s.points]));
  const inGame = Object.fromEntries((view?.seats ?? []).map((s) => [s.seat, s]));
  const own = gameOf(game?.name);
  // once a game's results panel shows every seat's score, their cards would only repeat it
  const summed = game?.over && own?.results;
  const shown = summed ? [] : game ? status.seats.filter((s) => s.playing) : status.seats;
  fill(
    document.getElementById("seats"),
    shown.map((seat) =>
      seatCard(seat, pointsOf[seat.seat], {
        turn: game && !game.over && game.turn_seat === seat.seat,
        out: inGame[seat.seat]?.in_game === false,
        ice: !game || game.ice,
        running: game && !game.over,
        score: inGame[seat.seat] ? own?.score?.(seat.seat, view) : null,
      }),
    ),
  );
  const fair = game ? `${game.commitment}:${game.over}` : "";
  if (fair !== drawnFair) {
    drawnFair = fair;
    fill(document.getElementById("fair"), fairness(game));
  }
}

function headline(status, bySeat) {
  const game = status.game;
  const evening = tonight ? el("p", { class: "tonight", text: tonight }) : null;
  if (!game) {
    return [
      el("p", { class: "notice", text: t("table.waiting") }),
      evening,
      status.simulated ? el("p", { class: "hint", text: t("table.simulated", { speed: status.speed }) }) : null,
    ];
  }
  const view = game.view;
  const turn = bySeat[game.turn_seat];
  return [
    el("h2", { text: gameTitle(game.name) }),
    game.over
      ? el("p", { class: "outcome", text: outcomeLine(game, bySeat) })
      : turn
        ? el("p", { class: "turn" }, t("turn.of"), " ", seatLabel(turn.seat, turn.name, turn.colour))
        : null,
    game.over ? gameOf(game.name)?.results?.(view, bySeat) : null,
    game.over ? evening : null,
    view.attack ? el("p", { class: "attack" }, attackLine(view.attack, bySeat)) : null,
    view.attack?.instruction ? el("p", { class: "instruction", text: instruction(view.attack) }) : null,
    status.simulated ? el("p", { class: "hint", text: t("table.simulated", { speed: status.speed }) }) : null,
  ];
}

function showCount(count, bySeat) {
  const box = document.getElementById("count");
  box.hidden = !count;
  if (!count) return;
  const seat = bySeat[count.seat];
  fill(
    box,
    el("p", { class: "count-seat" }, seat ? seatLabel(seat.seat, seat.name, seat.colour) : null),
    el("p", { class: "count-number", text: count.n || "…" }),
    el("p", { class: "count-words", text: count.n ? countWords(count.n) : t("count.ready") }),
    el("div", { class: "count-bar", "aria-hidden": "true" },
      Array.from({ length: count.of }, (_, i) => el("span", { class: i < count.n ? "lit" : "" }))),
  );
}

/** The fair-play line: the commitment, opened on a tap; once the game is over the export's link
 * is on the line itself, so a tablet's screen holds it without opening the rest. */
function fairness(game) {
  if (!game) return null;
  const exported = () => el("a", { href: "/api/export", download: `companion-${game.name}.json`, text: t("fair.export") });
  return el(
    "details",
    {},
    el("summary", {}, t(`fair.title.${game.dealt}`), " ", el("code", { text: game.commitment.slice(0, 16) }),
      game.over ? [" · ", exported()] : null),
    el("p", { text: t("fair.commitment") }),
    el("p", {}, el("code", { class: "commitment", text: game.commitment })),
    game.over
      ? [
          el("p", { text: t("fair.verify") }),
          el("pre", { text: `companion verify companion-${game.name}.json` }),
        ]
      : el("p", { text: t("fair.after") }),
  );
}

/** The table's own Wi-Fi network, when it made one: its QR code, then the table page's on it
 * (a phone scans twice: the network, then its seat's code on the referee's page). */
async function showNetwork() {
  let network;
  try {
    network = await api("/api/hotspot");
  } catch {
    return; // NetworkManager took it down since: the table is on the room's Wi-Fi
  }
  const code = (text, label) => {
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    return document.importNode(svg, true);
  };
  const box = document.getElementById("network");
  fill(
    box,
    el("figure", {}, code(network.qr_svg, t("network.wifi", { ssid: network.ssid })), el("figcaption", { text: t("network.wifi_caption", { ssid: network.ssid, password: network.password }) })),
    el("figure", {}, code(network.table_qr_svg, t("network.table", { url: network.table_url })), el("figcaption", { text: t("network.table", { url: network.table_url }) })),
  );
  box.hidden = false;
}

follow(show);
if ("own" in document.getElementById("network").dataset) showNetwork();
