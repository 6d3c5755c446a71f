// The referee's view: start a game, hand out the seats' codes, keep the game going, and look back
// on tonight's games.

import { ApiError, api, complain, confirmButton, duration, el, fill, follow, forgetToken, keep, keepToken, lang, locale, number, onNewLink, seatLabel, seatName, settledAt, t } from "./common.js";
import { gameFor } from "./game.js";
import { iceOf } from "./ice.js";
import { setUp, setUpSeats } from "./setting-up.js";
import { actingFor, actionLabel } from "./choices.js";
import { gameTitle, nameOf, outcomeLine } from "./words.js";

let token = keepToken("referee");
let setup = null;
let status = null;
let seen;
/** The game the start form was drawn for, and whether it was running: the form is drawn again
 * only when a game starts or ends, so one the referee opened and filled in for the next game
 * stays as they left it while the seats play. */
let startDrawn;
let askAgain = null;
/** How long a view that could not be fetched (a Wi-Fi blip) waits before it is asked again. */
const ASK_AGAIN_MS = 2000;
let joined = null;
let asked = 0;
let tonightFor;
/** The latest asking of the codes and of tonight's games: two answers may cross on the Wi-Fi,
 * and only the latest question's is drawn (an older one would undo a seat's join). */
let joinAsked = 0;
let tonightAsked = 0;

const $ = (id) => document.getElementById(id);
const keyButton = () => $("key-form").querySelector("button");

/** `control`, named for its refusals (see common.js's `complain`): a control drawn again under the
 * same name has the last one's refusal said beside it. */
function refusable(control, name) {
  control.dataset.refusable = name;
  return control;
}

/** Check the token on the game's view, when there is a game (else the start checks it). */
async function begin() {
  if (!token) return askToken();
  try {
    if ((await api("/api/status")).game) await api("/api/view", { token });
    await setUp(token); // the referee's alone: a wrong token is told here too
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return askToken(t("referee.token.wrong"));
    if (!(error instanceof ApiError && error.code === "no-game")) complain(error);
  }
  settledAt(keyButton());
  $("key").hidden = true;
  setup = await api("/api/setup").catch(() => null);
  drawVersion(setup?.version);
  follow(onStatus);
}

/** Which companion the table runs, in small print at the page's foot: the package's version and
 * the commit it was installed from, when the table knows it. */
function drawVersion(version) {
  if (!version) return;
  const line = $("version");
  line.textContent = version.commit
    ? t("referee.version", { package: version.package, commit: version.commit.slice(0, 7) })
    : t("referee.version.package", { package: version.package });
  line.hidden = false;
}

function askToken(problem) {
  forgetToken("referee", token);
  token = null;
  $("key").hidden = false;
  if (problem) complain(new ApiError(401, "unauthorized", problem), keyButton());
}

$("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const given = $("key-input").value.trim().replace(/^.*#/, "");
  keep("referee", given);
  token = given;
  begin();
});

function onStatus(next) {
  status = next;
  const game = next.game;
  const playing = game && !game.over;
  const melted = next.seats.filter((s) => s.ice?.melted).map((s) => s.seat);
  const mark = game ? `${game.commitment}:${game.changes}:${game.over}:${melted}` : null;
  if (mark !== seen) {
    seen = mark;
    drawRunning();
  }
  const starting = `${playing}:${game?.commitment}`;
  if (starting !== startDrawn) {
    startDrawn = starting;
    drawStart(playing);
  }
  const holding = `${game?.commitment}:${next.seats.filter((s) => s.joined).map((s) => s.seat)}`;
  if (playing && joined !== holding) {
    joined = holding;
    drawJoin();
  }
  $("join").hidden = !playing;
  drawIce(next);
  setUpSeats(next);
  drawBroker(next.broker);
  drawTonight(next);
}

/** Tonight's finished games, newest first, asked for again whenever a game starts or ends: each
 * with its winner, its export, and a check of that export by the table's own replay. */
async function drawTonight(next) {
  const mark = `${next.game?.commitment}:${next.game?.over}`;
  if (mark === tonightFor) return;
  tonightFor = mark;
  const question = ++tonightAsked;
  let games;
  try {
    const [standings, history] = await Promise.all([api("/api/standings"), api("/api/history")]);
    games = history.games.filter((g) => standings.since !== null && g.started_at >= standings.since);
  } catch (error) {
    if (question !== tonightAsked) return;
    tonightFor = undefined;
    return complain(error);
  }
  if (question !== tonightAsked) return;
  const box = $("tonight");
  box.hidden = false;
  fill(box, el("h2", { text: t("history.title") }),
    games.length ? el("ol", { class: "games" }, games.map(finishedGame)) : el("p", { class: "hint", text: t("history.none") }));
}

function finishedGame(game) {
  const bySeat = Object.fromEntries(game.seats.map((s) => [s.seat, s]));
  const at = new Date(game.started_at * 1000).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  const result = game.ended_early
    ? t("history.ended")
    : game.winner === null ? t("history.tie") : t("history.won", { name: nameOf(bySeat, game.winner) });
  const seats = game.seats.map((s) => (game.scores ? `${seatName(s.seat, s.name)} ${game.scores[s.seat]}` : seatName(s.seat, s.name)));
  const verdict = el("div", { class: "verdict", role: "status" });
  const check = el("button", { type: "button", class: "secondary", "data-refusable": `check:${game.id}` }, t("history.check"));
  check.addEventListener("click", () => checkExport(game, check, verdict));
  return el("li", { class: "finished", "data-game": game.id },
    el("p", {}, el("strong", { text: `${at} ${gameTitle(game.game)}` }), " ", result),
    el("p", { class: "hint", text: `${seats.join(" · ")} · ${t("history.length", { n: game.actions, time: duration(game.minutes * 60) })}` }),
    el("div", { class: "choices" },
      el("a", { href: game.export, download: `companion-${game.game}-${game.id}.json`, class: "export-link", text: t("history.export") }), check),
    verdict);
}

/** Fetch a finished game's export and have the table check it as `companion verify` does; the
 * verdict in words, and what was checked. */
async function checkExport(game, button, out) {
  fill(out, el("p", { class: "hint", text: t("history.checking") }));
  try {
    const verdict = await api("/api/verify", { method: "POST", body: await api(game.export) });
    fill(out,
      el("p", { class: verdict.ok ? "honest" : "fault", text: verdict.ok ? t("history.honest") : t("history.mismatch", { mismatch: verdict.mismatch }) }),
      el("details", {}, el("summary", { text: t("history.checks") }), el("ul", {}, verdict.lines.map((line) => el("li", { text: line })))));
    settledAt(button);
  } catch (error) {
    fill(out);
    complain(error, button);
  }
}

/** Where the MQTT broker stands, when the table publishes to one: a fault says since when. */
function drawBroker(broker) {
  const box = $("broker");
  box.hidden = !broker;
  if (!broker) return;
  const since = new Date(broker.since * 1000).toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  box.textContent = t(`referee.broker.${broker.state}`, { host: broker.host, since, detail: broker.detail });
  box.classList.toggle("fault", broker.state === "unreachable" || broker.state === "refused");
}

/** Every playing seat's ice, in the ice race: what the referee weighs a melted call against. */
function drawIce(next) {
  const box = $("ice");
  const racing = next.game?.ice && !next.game.over;
  box.hidden = !racing;
  if (!racing) return fill(box);
  const out = new Set((next.game.view?.seats ?? []).filter((s) => s.in_game === false).map((s) => s.seat));
  fill(box, el("h3", { text: t("referee.ice") }),
    next.seats.filter((s) => s.playing && !out.has(s.seat)).map((s) =>
      el("div", { class: "ice-row", "data-seat": s.seat }, seatLabel(s.seat, s.name, s.colour), iceOf(s))));
}

async function drawRunning() {
  const box = $("running");
  const game = status.game;
  box.hidden = !game;
  if (!game) return fill(box);
  let view = null;
  const question = ++asked;
  try {
    view = await api("/api/view", { token });
    await gameFor(view.game);
  } catch (error) {
    complain(error);
    // drawn without its actions for now: asked again soon, as no other change may come
    seen = undefined;
    clearTimeout(askAgain);
    askAgain = setTimeout(() => onStatus(status), ASK_AGAIN_MS);
  }
  if (question !== asked) return;
  const bySeat = Object.fromEntries(status.seats.map((s) => [s.seat, s]));
  const legal = view?.legal_actions ?? [];
  const melts = legal.filter((a) => a.type === "melted");
  const proposed = melts.filter((a) => bySeat[a.seat]?.ice?.melted);
  const others = melts.filter((a) => !proposed.includes(a));
  fill(
    box,
    el("h2", { text: gameTitle(game.name) }),
    el("p", { text: game.over ? t("referee.over", { n: game.actions, outcome: outcomeLine(game, bySeat) }) : t("referee.playing", { n: game.actions, seat: nameOf(bySeat, game.turn_seat) }) }),
    el("div", { class: "choices" }, legal.filter((a) => a.type !== "melted").map((a) => referee(a, view, bySeat))),
    proposed.length
      ? [el("p", { class: "choice-title", text: t("referee.melts.proposed") }), el("div", { class: "choices" }, proposed.map((a) => referee(a, view, bySeat)))]
      : null,
    others.length
      ? el("details", {}, el("summary", { text: proposed.length ? t("referee.melts.other") : t("referee.melts") }), el("div", { class: "choices" }, others.map((a) => referee(a, view, bySeat))))
      : null,
    takeBack(view?.take_back),
    el("div", { class: "choices" }, game.over ? null : endButton(), exportButton()),
  );
}

function referee(action, view, bySeat) {
  const who = actingFor(action, view);
  const text =
    action.type === "count-finished"
      ? t("referee.skip_count")
      : action.type === "melted"
        ? t("referee.melted", { seat: nameOf(bySeat, action.seat) })
        : t("referee.for", { action: actionLabel(action, view, bySeat), name: nameOf(bySeat, who) });
  const button = action.type === "melted"
    ? confirmButton(text, () => send("/api/actions", action, button), "secondary")
    : el("button", { type: "button", onclick: () => send("/api/actions", action, button) }, text);
  return refusable(button, `action:${text}`);
}

/** Post `body` to `path`; a refusal is shown beside the button that asked (`near`), and put away
 * when it next asks and is answered. */
async function send(path, body, near) {
  try {
    await api(path, { token, method: "POST", body });
    settledAt(near);
  } catch (error) {
    complain(error, near);
  }
}

/** End the game before its rules do, after a second tap. */
function endButton() {
  const button = refusable(confirmButton(t("referee.end"), () => send("/api/games/end", {}, button), "danger"), "end");
  return button;
}

/** The referee takes back the last action that stands (a mis-tap), after a second tap: the
 * button says what it takes back. */
function takeBack(offer) {
  if (!offer) return null;
  const button = refusable(confirmButton(t("referee.take_back"), () => send("/api/actions", offer.action, button), "secondary"), "take-back");
  return el("div", { class: "take-back" },
    el("p", { class: "hint", text: t("referee.take_back.last", { what: lang === "de" ? offer.de : offer.en }) }), button);
}

/** Download the game's export. */
function exportButton() {
  const button = el("button", { type: "button", class: "secondary", "data-refusable": "export", onclick: () => exportGame(button) }, t("referee.export"));
  return button;
}

/** Fetch the export and hand it to the browser as a file; a refusal is said beside `button`. */
async function exportGame(button) {
  try {
    const data = await api("/api/export", { token });
    const link = el("a", {
      href: URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" })),
      download: `companion-${data.game}.json`,
    });
    document.body.append(link);
    link.click();
    link.remove();
    settledAt(button);
  } catch (error) {
    complain(error, button);
  }
}

async function drawJoin() {
  const box = $("join");
  const question = ++joinAsked;
  let join;
  try {
    join = await api("/api/join", { token });
  } catch (error) {
    return question === joinAsked ? complain(error) : undefined;
  }
  if (question !== joinAsked) return;
  fill(
    box,
    el("h2", { text: t("join.title") }),
    el("p", { class: "hint", text: t("join.hint") }),
    el("div", { class: "codes" }, join.seats.map(seatCode)),
  );
}

/** A seat's code to scan while no phone holds the seat, "joined" once one does; and a new code
 * for it (which signs its phone out: a lost phone, a player who swaps). */
function seatCode(s) {
  const renew = refusable(confirmButton(t("join.renew"), () => renewCode(s.seat, renew)), `renew:${s.seat}`);
  const caption = el("figcaption", {}, el("strong", { text: seatName(s.seat, s.name) }), " ");
  if (!s.url) {
    caption.append(el("span", { class: "joined", text: t("join.joined") }), " ", renew);
    return el("figure", { class: "code joined", "data-seat": s.seat }, caption);
  }
  const code = new DOMParser().parseFromString(s.svg, "image/svg+xml").documentElement;
  code.setAttribute("role", "img");
  code.setAttribute("aria-label", t("join.code", { name: s.name }));
  caption.append(el("a", { href: s.url, class: "join-link", target: "_blank", rel: "noopener", text: t("join.open") }), " ", renew);
  return el("figure", { class: "code", "data-seat": s.seat }, document.importNode(code, true), caption);
}

/** Give `seat` a new code and draw the codes again; a refusal is said beside `button`. */
async function renewCode(seat, button) {
  try {
    await api("/api/join", { token, method: "POST", body: { seat } });
  } catch (error) {
    return complain(error, button);
  }
  settledAt(button);
  drawJoin();
}

function drawStart(playing) {
  const box = $("start");
  box.hidden = false;
  if (!setup) return fill(box, el("p", { class: "notice", text: t("error.offline") }));
  const chosen = status?.game?.name ?? setup.games[0].name;
  const games = setup.games.map((g) =>
    el("label", { class: "option" }, el("input", { type: "radio", name: "game", value: g.name, checked: g.name === chosen, onchange: () => adapt(form) }),
      ` ${gameTitle(g.name)} `, el("small", { text: t("start.seats_range", { min: g.seats.min, max: g.seats.max }) })));
  const form = el(
    "form",
    { class: "start-form" },
    el("fieldset", {}, el("legend", { text: t("start.game") }), games),
    el("fieldset", {}, el("legend", { text: t("start.seats") }), seatRows(),
      el("label", {}, t("start.first"), " ", el("select", { name: "first" }))),
    setup.games.filter((g) => g.options.length).map((g) =>
      el("fieldset", { "data-for": g.name }, el("legend", { text: t("start.options") }), g.options.map((o) => optionField(g, o)))),
    el("label", {}, t("start.seed"), " ", el("input", { name: "seed", autocomplete: "off", placeholder: t("start.seed.hint") })),
    playing ? el("label", { class: "option" }, el("input", { type: "checkbox", name: "replace" }), ` ${t("start.replace")}`) : null,
    el("button", { type: "submit", class: "primary", "data-refusable": "start" }, t("start.go")),
  );
  form.addEventListener("input", () => starters(form));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    startGame(form);
  });
  adapt(form);
  fill(box, playing ? el("details", {}, el("summary", { text: t("start.another") }), form) : [el("h2", { text: t("start.title") }), form]);
}

const said = (words) => (lang === "de" ? words.de : words.en);
const fieldName = (game, option) => `${game.name}:${option.name}`;

/** What the referee chose for each option when starting a game last: the next form starts so. */
const chosenBefore = {};

/** One option of a game's start as the table describes it (/api/setup): radios for a choice, a
 * number field, a checkbox, or a field where the parts of an order are typed; as chosen for the
 * last game of it, else the table's suggestion. */
function optionField(game, given) {
  const name = fieldName(game, given);
  const option = name in chosenBefore ? { ...given, default: chosenBefore[name] } : given;
  const hint = option.hint ? el("p", { class: "hint", text: said(option.hint) }) : null;
  if (option.type === "boolean") {
    return el("label", { class: "option" }, el("input", { type: "checkbox", name, checked: option.default }), ` ${said(option.label)}`);
  }
  if (option.type === "choice") {
    return el("div", { class: "option-choice" }, el("p", { class: "choice-title", text: said(option.label) }), hint,
      option.choices.map((c, i) => el("label", { class: "option" },
        el("input", { type: "radio", name, value: i, checked: c.value === option.default }), ` ${said(c.label)}`)));
  }
  if (option.type === "number") {
    return el("label", {}, said(option.label), " ",
      el("input", { name, type: "number", min: option.min, max: option.max, step: option.step, value: option.default }));
  }
  const example = option.choices.slice(0, 3).map((c) => said(c.label)).join(" ");
  return [el("label", {}, said(option.label), " ", el("input", { name, placeholder: example, autocomplete: "off" })), hint];
}

/** What the form says of one option, as the start's options take it; undefined: left out. */
function optionValue(form, game, option) {
  const field = form.elements[fieldName(game, option)];
  if (option.type === "boolean") return field.checked;
  if (option.type === "choice") return option.choices[Number(field.value)]?.value;
  if (option.type === "number") return Number(field.value);
  const typed = field.value.trim().split(/[\s,]+/).filter(Boolean);
  const known = (word) => option.choices.find((c) => String(c.value).toLowerCase() === word.toLowerCase())?.value ?? word;
  return typed.length ? typed.map(known) : undefined;
}

/** A row a seat: whether it plays, its name, its colour; as in the last game, else the table's. */
function seatRows() {
  const rows = [];
  const colours = setup.colours;
  const last = status?.game?.view?.seats;
  for (let n = 1; n <= 6; n++) {
    const known = (last ?? setup.seats).find((s) => s.seat === n);
    const name = known ? seatName(n, known.name) : t("seat.n", { seat: n });
    rows.push(el("div", { class: "seat-row", "data-seat": n },
      el("label", { class: "option" }, el("input", { type: "checkbox", name: `plays${n}`, checked: Boolean(known) }), ` ${n}`),
      el("input", { name: `name${n}`, value: name, "aria-label": t("start.name", { seat: n }), maxlength: 40 }),
      el("select", { name: `colour${n}`, "aria-label": t("start.colour", { seat: n }) },
        colours.map((c) => el("option", { value: c, selected: (known?.colour ?? colours[n - 1]) === c, text: t(`colour.${c}`) })))));
  }
  return rows;
}

/** Show only what the chosen game uses; six seats only where the game allows them. */
function adapt(form) {
  const name = form.elements.game.value;
  const game = setup.games.find((g) => g.name === name);
  for (const set of form.querySelectorAll("fieldset[data-for]")) set.hidden = set.dataset.for !== name;
  for (const row of form.querySelectorAll(".seat-row")) row.hidden = Number(row.dataset.seat) > game.seats.max;
  starters(form);
}

/** Who may start: the seats that play, by the names just typed. */
function starters(form) {
  const f = form.elements;
  const max = setup.games.find((g) => g.name === f.game.value).seats.max;
  const chosen = f.first.value;
  const options = [el("option", { value: "", text: t("start.first.random") })];
  for (let n = 1; n <= max; n++) {
    if (f[`plays${n}`].checked) options.push(el("option", { value: n, selected: String(n) === chosen, text: f[`name${n}`].value || t("seat.n", { seat: n }) }));
  }
  fill(f.first, options);
}

async function startGame(form) {
  const f = form.elements;
  const name = f.game.value;
  const game = setup.games.find((g) => g.name === name);
  const seats = [];
  for (let n = 1; n <= game.seats.max; n++) {
    if (f[`plays${n}`].checked) seats.push({ seat: n, name: f[`name${n}`].value.trim() || t("seat.n", { seat: n }), colour: f[`colour${n}`].value });
  }
  const options = {};
  if (f.first.value) options.first_seat = Number(f.first.value);
  for (const option of game.options) {
    const value = optionValue(form, game, option);
    if (value !== undefined) options[option.name] = value;
    if (option.type !== "order") chosenBefore[fieldName(game, option)] = value;
  }
  const body = { game: name, seats, options };
  if (f.seed.value.trim()) body.seeds = [f.seed.value.trim()];
  const go = form.querySelector("button[type=submit]");
  if (f.replace && !f.replace.checked) return complain(new ApiError(409, "replace", t("start.replace.needed")), go);
  if (f.replace) body.replace = true;
  try {
    await api("/api/games", { token, method: "POST", body });
    settledAt(go);
    joined = null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return askToken(t("referee.token.wrong"));
    complain(error, go);
  }
}

onNewLink();
begin();
