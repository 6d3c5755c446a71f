// What every page shares: its texts, the API, the live stream, tokens, and drawing helpers.

const catalogue = JSON.parse(document.getElementById("catalogue").textContent);
export const lang = document.documentElement.lang || "en";
const plurals = new Intl.PluralRules(lang);

/** The browser's own locale where it speaks the page's language, else the page's language:
 * en-GB's clock has 24 hours and its lists no comma before "and", en-US's 12 hours and one. */
export const locale = navigator.language?.startsWith(lang) ? navigator.language : lang;

/** Names as one list in words, as the reader's locale writes it: "Mia, Tom and Oma" (en-GB). */
export const listed = (names) => new Intl.ListFormat(locale, { type: "conjunction" }).format(names);

/**
 * The text of `key` in the page's language, with `{name}` placeholders filled from `vars`.
 *
 * A text that says a number of things is an object of forms, one per plural category of the
 * page's language (Intl.PluralRules: "one", "other", ...; "other" always there), and the number
 * in `vars.n` picks the form: `{"one": "{n} floe", "other": "{n} floes"}` says "1 floe" for
 * `{ n: 1 }` and "2 floes" for `{ n: 2 }`. An entry whose number has a name of its own says
 * which in "count": `{"count": "chips", "one": "{chips} chip", "other": "{chips} chips"}`.
 * Without its number a text takes its "other" form.
 */
export function t(key, vars = {}) {
  let text = catalogue[key] ?? key;
  if (typeof text === "object") text = text[plurals.select(Number(vars[text.count ?? "n"]))] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Whether the catalogue has a text for `key`. */
export const has = (key) => key in catalogue;

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Call the table's API; the answer's JSON, or an ApiError carrying the table's own sentence
 *  (in the page's language: the table answers in the language asked). */
export async function api(path, { token = null, method = "GET", body } = {}) {
  const headers = { "Accept-Language": lang };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, "offline", t("error.offline"));
  }
  const data = await response.json().catch(() => null);
  if (response.ok) settled(method === "GET" ? "offline" : null);
  if (!response.ok) {
    const error = data?.error ?? {};
    throw new ApiError(response.status, error.code ?? "http", error.message ?? t("error.http", { status: response.status }));
  }
  return data;
}

const QUIET_MS = 40000;
// The table's stream beats every 15 s while nothing changes. Intervals run on performance.now():
// a phone's wall clock may step.

/**
 * This tab's name for itself on the table's stream, kept across reloads of the tab: a stream
 * it opens again (a phone that woke) ends its old one at the table, which a phone gone to
 * sleep never closed. Random, not a secret (crypto.randomUUID needs https; this does not).
 */
function deviceId() {
  const key = "companion.device";
  let id = sessionStorage.getItem(key);
  if (!id || !/^[0-9a-f]{32}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    sessionStorage.setItem(key, id);
  }
  return id;
}

/**
 * Follow the table's status: `onStatus` gets every snapshot. The header shows whether the page
 * is live; a dropped stream is opened again by itself, sooner the first times, and a stream that
 * has gone quiet (a phone's Wi-Fi asleep) is checked and opened again.
 */
export function follow(onStatus) {
  const link = document.getElementById("link");
  let source = null;
  let delay = 1;
  let heard = performance.now();
  let again = null;
  const show = (state) => {
    if (link.dataset.state === state) return;
    if (state === "live") settled("offline"); // the table is back
    link.dataset.state = state;
    link.textContent = t(`link.${state}`);
  };
  const open = () => {
    clearTimeout(again);
    source?.close();
    source = new EventSource(`/api/stream?device=${deviceId()}`);
    source.onopen = () => {
      delay = 1;
      show("live");
    };
    source.addEventListener("status", (event) => {
      heard = performance.now();
      show("live");
      onStatus(JSON.parse(event.data));
    });
    source.addEventListener("beat", () => {
      heard = performance.now();
      show("live");
    });
    source.onerror = () => {
      show("lost");
      if (source.readyState === EventSource.CLOSED) {
        again = setTimeout(open, delay * 1000);
        delay = Math.min(delay * 2, 30);
      }
    };
  };
  const check = async () => {
    if (performance.now() - heard < QUIET_MS) return;
    // Neither a status nor a beat for this long: the stream is gone (a Wi-Fi that dropped
    // without a word leaves its socket looking open), so open another and ask meanwhile.
    show("lost");
    open();
    try {
      onStatus(await api("/api/status"));
      heard = performance.now();
    } catch {
      // the new stream keeps trying by itself
    }
  };
  open();
  setInterval(check, QUIET_MS / 4);
  addEventListener("online", open);
  document.addEventListener("visibilitychange", () => !document.hidden && check());
}

/** The token from the address's fragment (the referee's link), else the one kept. */
export function keepToken(name) {
  const given = takeFragment();
  if (given) keep(name, given);
  return given ?? kept(name);
}

/** The address's fragment, taken out of the address bar. */
export function takeFragment() {
  const given = decodeURIComponent(location.hash.slice(1));
  if (given) history.replaceState(null, "", location.pathname + location.search);
  return given || null;
}

/** Kept per tab as well, so two seats opened in two tabs of one phone stay apart. */
export function keep(name, token) {
  sessionStorage.setItem(`companion.${name}`, token);
  localStorage.setItem(`companion.${name}`, token);
}

export function kept(name) {
  return sessionStorage.getItem(`companion.${name}`) ?? localStorage.getItem(`companion.${name}`);
}

/** A new link opened in a tab that already shows a page: start afresh with it. */
export function onNewLink() {
  addEventListener("hashchange", () => location.hash.length > 1 && location.reload());
}

/** Forget a token the table refused; not one a newer link has put in its place meanwhile. */
export function forgetToken(name, refused) {
  for (const store of [sessionStorage, localStorage]) {
    if (store.getItem(`companion.${name}`) === refused) store.removeItem(`companion.${name}`);
  }
}

/** An HTML element: `attrs` are attributes, `on*` functions listeners, `text` its text. */
export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element, built like `el`. */
export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace what `node` holds. A refusal said beside a named control in it (see `complain`) is
 * said beside the control drawn in its place, or, where none is, at the end of `node` until it is
 * drawn again; one that was on the screen is kept there. */
export function fill(node, ...children) {
  const held = [...refusals].filter(([, note]) => node.contains(note)).map(([name, note]) => [name, note, onScreen(note)]);
  node.replaceChildren();
  build(node, {}, children);
  for (const control of node.querySelectorAll("[data-refusable]")) boxes.set(control, node);
  for (const [name, note, seen] of held) {
    const control = named(node, name);
    if (control) control.after(note);
    else {
      refusals.delete(name);
      node.append(note);
    }
    if (seen) note.scrollIntoView({ block: "nearest" });
  }
  return node;
}

const COLOURS = {
  blue: "#2f6fde",
  yellow: "#e8b90c",
  green: "#2e9e4f",
  pink: "#e0609f",
  orange: "#ef7d18",
  purple: "#8a4fd0",
  red: "#d93a2b",
};

export const colourOf = (name) => COLOURS[name] ?? "#8a8f98";

const SIDES = { 1: 0, 2: 4, 3: 3, 4: 4, 5: 5, 6: 6 };

/** The outline of seat `seat`'s shape, centred at (x, y) with radius r: a circle, square,
 * triangle, diamond, pentagon or hexagon, so a seat is known by shape and number, not colour. */
export function seatShape(seat, x, y, r, attrs = {}) {
  const sides = SIDES[seat] ?? 0;
  if (!sides) return svg("circle", { cx: x, cy: y, r, ...attrs });
  const turn = seat === 4 ? 0 : seat === 2 ? Math.PI / 4 : -Math.PI / 2;
  const k = seat === 3 ? 1.2 : seat === 2 ? 1.25 : 1.1;
  const points = [];
  for (let i = 0; i < sides; i++) {
    const a = turn + (i * 2 * Math.PI) / sides;
    points.push(`${(x + k * r * Math.cos(a)).toFixed(1)},${(y + k * r * Math.sin(a)).toFixed(1)}`);
  }
  return svg("polygon", { points: points.join(" "), ...attrs });
}

/** A seat's piece: its shape in its colour with its number on it. */
export function piece(seat, colour, x, y, r) {
  return svg(
    "g",
    { class: "piece" },
    seatShape(seat, x, y, r, { fill: colourOf(colour), stroke: "#1d232b", "stroke-width": 1.5 }),
    svg("text", { x, y: y + r * 0.4, "font-size": r * 1.1, class: "piece-number", text: seat }),
  );
}

/** A seat's name as the page says it: the table's default "Seat 3" in the page's language. */
export function seatName(seat, name) {
  return !name || /^Seat \d+$/.test(name) ? t("seat.n", { seat }) : name;
}

/** A seat's marker for running text: its piece, its name and its colour in words. */
export function seatLabel(seat, name, colour) {
  return el(
    "span",
    { class: "seat-label" },
    svg("svg", { viewBox: "0 0 24 24", class: "marker", "aria-hidden": "true" }, piece(seat, colour, 12, 12, 9)),
    el("span", { class: "seat-name", text: seatName(seat, name) }),
    colour ? el("span", { class: "seat-colour", text: t(`colour.${colour}`) }) : null,
  );
}

/** A number in the page's language: 4.2 or 4,2. */
export function number(x, digits = 1) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A time span as people say it at a table: "1 h 05 min", "12 min", "40 s". */
export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t("time.s", { s });
  const m = Math.round(s / 60);
  if (m < 60) return t("time.min", { m });
  return t("time.h_min", { h: Math.floor(m / 60), m: String(m % 60).padStart(2, "0") });
}

/** A card's name in the page's language. */
export const cardName = (card) => (lang === "de" && card.name_de ? card.name_de : card.name);

export const ARMED_MS = 3000;
/** When each armed button (by its words) stops waiting for its second tap, on performance.now(). */
const armedUntil = new Map();

/** A button that asks once more before it runs: for what cannot be taken back. The first tap
 * arms it for 3 s; a page redrawn meanwhile (a live update) draws it armed still, so the second
 * tap confirms whenever it comes in those 3 s. */
export function confirmButton(text, run, cls = "secondary") {
  const b = el("button", { type: "button", class: cls }, text);
  const arm = (until) => {
    b.dataset.armed = "1";
    b.textContent = t("confirm.again");
    setTimeout(() => {
      delete b.dataset.armed;
      b.textContent = text;
    }, until - performance.now());
  };
  const until = armedUntil.get(text) ?? 0;
  if (until > performance.now()) arm(until);
  b.addEventListener("click", () => {
    if (b.dataset.armed) {
      armedUntil.delete(text);
      return run();
    }
    const next = performance.now() + ARMED_MS;
    armedUntil.set(text, next);
    arm(next);
  });
  return b;
}

/** A short sentence when something went wrong, in the flow of the page, so it covers no control
 * and no code: beside `near` (the control that caused it) when given, until that control's next
 * action goes through (`settledAt`); else in the page's note at the top of the page, until the
 * next action the table takes. Either goes at a tap on it, never by itself: a note that went by
 * itself would move the page under a finger at a moment nobody chose. */
export function complain(error, near = null) {
  const message = error instanceof ApiError ? error.message : t("error.page");
  if (near && refuse(message, near)) return;
  const line = document.getElementById("error");
  if (!line) return;
  line.textContent = message;
  line.dataset.code = error instanceof ApiError ? error.code : "page";
  line.hidden = false;
  line.onclick = () => settled();
}

/** The refusals said beside a named control (its `data-refusable`), by its name: a page drawn
 * again (a live update) says each beside its control again, until that control's next action
 * goes through (`settledAt`) or the note is tapped. */
const refusals = new Map();
/** The node each named control was drawn into by `fill`: where its refusal goes when the control
 * was drawn anew, or away, before the table answered. */
const boxes = new WeakMap();

const named = (node, name) => [...node.querySelectorAll("[data-refusable]")].find((c) => c.dataset.refusable === name);

function onScreen(node) {
  const r = node.getBoundingClientRect();
  return r.height > 0 && r.bottom > 0 && r.top < innerHeight;
}

/** Say `message` beside `near`, or beside the control drawn in its place meanwhile, or where
 * `near` was when no control is (a game that ended has no end button); scrolled into view.
 * Whether it could be said there: a control drawn away with its box is not. */
function refuse(message, near) {
  const name = near.dataset.refusable;
  const box = boxes.get(near);
  const control = near.isConnected ? near : name && box?.isConnected ? named(box, name) : null;
  if (!control && !box?.isConnected) return false;
  let note = name ? refusals.get(name) : near.nextElementSibling;
  if (!note?.classList.contains("refusal")) note = el("p", { class: "error refusal", role: "alert" });
  note.textContent = message;
  note.onclick = () => forget(name, note);
  if (control) control.after(note);
  else box.append(note); // its control drawn away: said where it was, until its box is drawn again
  if (name && control) refusals.set(name, note);
  else if (name) refusals.delete(name);
  note.scrollIntoView({ block: "nearest" });
  return true;
}

function forget(name, note) {
  note.remove();
  if (name && refusals.get(name) === note) refusals.delete(name);
}

/** The refusal beside `near` put away: that control's next action went through. */
export function settledAt(near) {
  const name = near.dataset.refusable;
  const note = name ? refusals.get(name) : near.nextElementSibling;
  if (note?.classList.contains("refusal")) forget(name, note);
}

/** The note put away: something the table was asked to do was done; with a `code`, only a
 * note of that kind (the table reached again puts away "the table cannot be reached"). */
export function settled(code = null) {
  const line = document.getElementById("error");
  if (line && (code === null || line.dataset.code === code)) line.hidden = true;
}
