// The referee's set-up of the sensors: the steps of `companion calibrate`, run by the table while it
// plays (/api/calibration). Each step waits for the go, reads, and is accepted or aborted; nothing
// is saved until it is accepted. What a step reads, its checks and its refusals are the table's.

import { api, complain, el, fill, lang, number, t } from "./common.js";

const POLL_MS = 300;
const RUNNING = ["waiting", "measuring", "proposed"];
let token = null;
let state = null;
let lacking = [];
let asked = null;
let polling = null;
let sent = 0;
let drawn = 0;
const $ = (id) => document.getElementById(id);
const plain = (x) => (typeof x === "number" ? new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(x) : x);

/** Show the set-up to the referee holding `held`, its token; a token the table refuses is
 * thrown, as the page's first call that needs the referee's. */
export async function setUp(held) {
  token = held;
  const next = await api("/api/calibration", { token });
  const box = $("setting-up");
  if (!box.firstChild) {
    fill(box, el("details", { id: "setup-box" }, el("summary", { text: t("setup.title") }), el("div", { id: "setup-body" })));
  }
  box.hidden = false;
  shown(next);
}

/** The seats whose pads are not calibrated yet, from each status: said above the steps. */
export function setUpSeats(status) {
  const seats = status.seats.filter((s) => s.uncalibrated?.length && s.sensors?.scale !== "none").map((s) => s.seat);
  if (String(seats) === String(lacking)) return;
  lacking = seats;
  drawLacking();
}

async function refresh() {
  clearTimeout(polling);
  const n = ++sent;
  try {
    shown(await api("/api/calibration", { token }), n);
  } catch (error) {
    complain(error);
  }
}

/** Draw the set-up as answer number `n` found it. Every answer holds the whole set-up, so one
 * that comes after a later one's (a poll slow to return while the referee tapped on) is old. */
function shown(next, n = ++sent) {
  if (n < drawn) return;
  drawn = n;
  state = next;
  draw();
  clearTimeout(polling);
  if (state.phase === "measuring") polling = setTimeout(refresh, POLL_MS);
}

/** Post to the set-up; its answer is drawn, a refusal is said beside `near`. */
async function post(path, body, near) {
  const n = ++sent;
  try {
    shown(await api(path, { token, method: "POST", body }), n);
  } catch (error) {
    complain(error, near);
  }
}

function draw() {
  const body = $("setup-body");
  if (!state || !body) return;
  if (RUNNING.includes(state.phase)) $("setup-box").open = true;
  const views = { idle: chooser, waiting: stage, measuring: stage, proposed: proposed, refused: refused, written: written };
  fill(body, el("p", { class: "hint", text: t("setup.hint") }), el("div", { id: "setup-lacking" }), views[state.phase]());
  drawLacking();
}

/** The seats whose pads are not calibrated yet, said above the step: drawn on their own, so a
 * status that changes them leaves the step as it is under the referee's finger (a button
 * replaced between its press and its release takes no tap) and the form as typed in. */
function drawLacking() {
  const box = $("setup-lacking");
  if (!box) return;
  if (lacking.length) $("setup-box").open = true;
  fill(box, lacking.map((seat) => el("p", { class: "fault uncalibrated", text: t("ice.uncalibrated", { seat }) })));
}

/** The steps the table has sensors for, one to choose, with its seat, its weight or its water. */
function chooser() {
  const steps = [["identify", state.probes || state.pads], ["tare", state.pads], ["weight", state.pads], ["cap", state.pads], ["temperature", state.probes]]
    .filter(([, has]) => has).map(([step]) => step);
  if (!steps.length) return el("p", { class: "hint", text: t("setup.none") });
  const chosen = asked && steps.includes(asked.step) ? asked.step : steps[0];
  const form = el("form", { class: "setup-form" },
    el("fieldset", {}, el("legend", { text: t("setup.step") }),
      steps.map((step) => el("label", { class: "option setup-step" },
        el("input", { type: "radio", name: "step", value: step, checked: step === chosen }),
        el("span", {}, el("strong", { text: t(`setup.step.${step}`) }), " ", el("small", { text: t(`setup.about.${step}`) }))))),
    el("label", {}, t("setup.seat"), " ", el("select", { name: "seat" },
      el("option", { value: "", text: t("setup.every") }),
      state.table_seats.map((n) => el("option", { value: n, text: t("seat.n", { seat: n }) })))),
    el("fieldset", { "data-for": "weight" }, el("legend", { text: t("setup.weight") }), weights()),
    el("label", { "data-for": "temperature" }, t("setup.reference"), " ",
      el("input", { name: "reference", type: "number", min: -20, max: 60, step: "any", value: 0, inputmode: "decimal" })),
    el("button", { type: "submit", class: "primary" }, t("setup.start")));
  const adapt = () => {
    const step = form.elements.step.value;
    for (const part of form.querySelectorAll("[data-for]")) part.hidden = part.dataset.for !== step;
    const every = form.elements.seat.options[0];
    every.hidden = every.disabled = step === "weight";
    if (step === "weight" && !form.elements.seat.value) form.elements.seat.value = state.table_seats[0];
  };
  form.addEventListener("change", adapt);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const f = form.elements;
    const body = { step: f.step.value };
    if (f.seat.value) body.seat = Number(f.seat.value);
    if (body.step === "weight") body.grams = gramsOf(form);
    if (body.step === "temperature") body.reference_c = Number(f.reference.value);
    asked = body;
    post("/api/calibration", body, form.querySelector("button[type=submit]"));
  });
  adapt();
  return form;
}

/** The known weights: common coins by their nominal mass, each with how far one may be off, or any
 * grams typed. */
function weights() {
  const typed = el("input", { name: "grams", type: "number", min: 0.01, max: state.most_grams, step: "any", inputmode: "decimal", "aria-label": t("setup.grams") });
  const own = el("input", { type: "radio", name: "coin", value: "" });
  typed.addEventListener("input", () => (own.checked = true));
  return [
    state.coins.map((c, i) => el("label", { class: "option coin" },
      el("input", { type: "radio", name: "coin", value: c.name, checked: i === 0 }),
      ` ${t("setup.coin", { coin: t(`coin.${c.name}`), grams: number(c.grams, 2), error: number(c.error_g, 2), percent: number(c.error_percent, 0) })}`)),
    el("label", { class: "option coin" }, own, ` ${t("setup.typed")} `, typed, " g"),
  ];
}

const gramsOf = (form) => {
  const coin = form.elements.coin.value;
  return coin ? state.coins.find((c) => c.name === coin).grams : Number(form.elements.grams.value);
};

/** What the person at the table does now; the go, or the bar while the table reads. */
function stage() {
  const s = state.stage;
  const all = s.seat === null && !["hold-probe", "press-pad"].includes(s.do) ? ".all" : "";
  const reading = state.phase === "measuring";
  const go = el("button", { type: "button", class: "primary", onclick: () => post("/api/calibration", { step: state.step }, go) }, t("setup.go"));
  return [
    el("p", { class: "setup-do", text: t(`setup.do.${s.do}${all}`, { seat: s.seat, grams: number(s.grams ?? 0, 2) }) }),
    reading ? [el("progress", { max: 1, value: s.done }), el("p", { class: "hint", role: "status", text: t("setup.reading") })] : go,
    found(),
    el("div", { class: "choices" }, abort(t("setup.abort"))),
  ];
}

function proposed() {
  const accept = el("button", { type: "button", class: "primary", onclick: () => post("/api/calibration/accept", undefined, accept) }, t("setup.accept"));
  return [
    el("p", { class: "setup-done", text: t("setup.proposed") }), found(), saves(),
    el("div", { class: "choices" }, accept, abort(t("setup.abort"))),
    state.step === "weight" ? another() : null,
  ];
}

/** A further known weight for the weight step: what stands on the pad in all. */
function another() {
  const form = el("form", { class: "setup-form" }, el("p", { class: "hint", text: t("setup.another.hint") }), weights(), el("button", { type: "submit", class: "secondary" }, t("setup.another")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    post("/api/calibration", { step: "weight", grams: gramsOf(form) }, form.querySelector("button[type=submit]"));
  });
  return el("details", {}, el("summary", { text: t("setup.another") }), form);
}

function refused() {
  const r = state.refused;
  const facts = Object.fromEntries(Object.entries(r.facts).map(([k, v]) => [k, plain(v)]));
  const kind = r.reason === "unheard" ? `.${r.facts.sensor}` : r.reason === "same-sensor" ? `.${r.facts.kind}` : "";
  const again = el("button", { type: "button", class: "primary", onclick: () => post("/api/calibration", asked ?? { step: state.step }, again) }, t("setup.again"));
  return [
    el("p", { class: "fault setup-refused", role: "alert", text: t(`setup.why.${r.reason}${kind}`, { ...facts, seat: r.seat, message: r.message }) }),
    found(),
    el("div", { class: "choices" }, again, abort(t("setup.close"))),
  ];
}

function written() {
  return [el("p", { class: "honest setup-written", role: "status", text: t("setup.written") }), found(), saves(),
    el("div", { class: "choices" }, abort(t("setup.done")))];
}

const abort = (words) => {
  const b = el("button", { type: "button", class: "secondary", onclick: () => post("/api/calibration/abort", undefined, b) }, words);
  return b;
};

/** What the step read, seat by seat, in words. */
function found() {
  if (!state.measured.length) return null;
  const digits = { C: 2, g: 2, counts: 0, "counts/g": 1 };
  return el("ul", { class: "setup-found" }, state.measured.map((m) => el("li", {
    text: t(`setup.m.${m.quantity}`, { seat: m.seat, sensor: m.sensor, value: number(m.value, digits[m.unit]), grams: number(m.grams ?? 0, 2), spread: number(m.spread ?? 0, digits[m.unit]) }),
  })));
}

/** What the step saves (or saved) to the table's calibration, for who wants to see it. */
function saves() {
  if (!state.writes.length) return null;
  return el("details", {}, el("summary", { text: t("setup.saves") }),
    el("ul", { class: "setup-saves" }, state.writes.map((w) => el("li", { text: `${t("seat.n", { seat: w.seat })}: ${w.key} = ${plain(w.value) ?? "–"} (${plain(w.was) ?? "–"})` }))));
}
