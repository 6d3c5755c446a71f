// The hall: every table of the room, live from the broker through the hall's stream.

import { duration, el, t } from "./common.js";

const cards = new Map();
const box = document.getElementById("tables");
const filter = document.getElementById("filter");
const link = document.getElementById("link");
let source = null;
let again = null;
let delay = 1;

function show(state) {
  link.dataset.state = state;
  link.textContent = t(`link.${state}`);
}

function seatLine(seat) {
  const ice = seat.melted ? t("hall.melted") : seat.grams === null ? "" : `${seat.grams.toFixed(1)} g`;
  const eta = seat.melted || seat.eta_s === null ? "" : duration(seat.eta_s);
  return el("li", { "data-seat": seat.seat }, el("span", { text: seat.name }), el("span", { text: [ice, eta].filter(Boolean).join(" · ") }));
}

function card(table) {
  const linked = /^https?:\/\/[^/]/i.test(table.address ?? "");
  const title = linked ? el("a", { href: table.address, text: table.name }) : el("span", { text: table.name });
  const state = el("span", { class: "state", text: table.online ? t("hall.online") : t("hall.offline") });
  const lines = [el("div", { class: "game", text: table.game ?? t("hall.nogame") })];
  if (table.winner) lines.push(el("div", { class: "winner", text: t("hall.winner", { name: table.winner }) }));
  else if (table.turn) lines.push(el("div", { class: "turn", text: t("hall.turn", { name: table.turn }) }));
  if (table.count) {
    const who = table.seats.find((s) => s.seat === table.count.seat)?.name ?? table.count.seat;
    lines.push(el("div", { class: "count", text: t("hall.count", { n: table.count.n, of: table.count.of, name: who }) }));
  }
  const seats = table.seats.filter((s) => s.playing || s.grams !== null);
  return el("article", { class: `hall-card${table.online ? "" : " offline"}`, "data-table": table.table },
    el("h2", {}, title, state), lines, seats.length ? el("ul", {}, seats.map(seatLine)) : null);
}

function draw() {
  const order = [...cards.values()].sort((a, b) => a.name.localeCompare(b.name) || a.table.localeCompare(b.table));
  box.replaceChildren(...order.map(card));
  const filtered = filter.value.trim() !== "";
  document.getElementById("none").hidden = order.length > 0 || filtered;
  document.getElementById("unmatched").hidden = order.length > 0 || !filtered;
}

function open() {
  clearTimeout(again);
  source?.close();
  const name = filter.value.trim();
  source = new EventSource(`/api/stream${name ? `?name=${encodeURIComponent(name)}` : ""}`);
  source.onopen = () => { delay = 1; show("live"); };
  source.addEventListener("tables", (event) => {
    cards.clear();
    for (const table of JSON.parse(event.data).tables) cards.set(table.table, table);
    draw();
  });
  source.addEventListener("table", (event) => {
    const table = JSON.parse(event.data);
    cards.set(table.table, table);
    draw();
  });
  source.onerror = () => {
    show("lost");
    if (source.readyState === EventSource.CLOSED) {
      again = setTimeout(open, delay * 1000);
      delay = Math.min(delay * 2, 30);
    }
  };
}

const asked = new URLSearchParams(location.search).get("name");
if (asked) filter.value = asked;
let typing = null;
filter.addEventListener("input", () => {
  clearTimeout(typing);
  typing = setTimeout(() => {
    const url = new URL(location.href);
    if (filter.value.trim()) url.searchParams.set("name", filter.value.trim());
    else url.searchParams.delete("name");
    history.replaceState(null, "", url);
    open();
  }, 250);
});
open();
