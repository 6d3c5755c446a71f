// A seat's card on the table view: who, the ice with its melt curve, the air, and any sensor in
// trouble in words.

import { duration, el, has, number, seatLabel, svg, t } from "./common.js";
import { W, iceOf } from "./ice.js";

/** A sensor's status in words, for its seat: null when it is fine. */
function sensorProblem(seat, kind, status) {
  if (!status || status === "ok" || status === "none") return null;
  if (status === "absent") return t(`sensor.${kind}.absent`, { seat });
  const reason = status.replace(/^fault: /, "");
  const said = has(`fault:${reason}`) ? t(`fault:${reason}`) : reason;
  return t(`sensor.${kind}.fault`, { seat, reason: said });
}

/** The melt curve since the start: the estimate's line inside its one-sigma band. */
function curve(points) {
  if (!points || points.length < 2) return null;
  const h = 48;
  const last = points[points.length - 1][0] || 1;
  const top = Math.max(...points.map(([, g, s]) => g + s), 0.1);
  const x = (ts) => ((ts / last) * W).toFixed(1);
  const y = (g) => (h - (Math.max(0, g) / top) * (h - 2)).toFixed(1);
  const upper = points.map(([ts, g, s]) => `${x(ts)},${y(g + s)}`);
  const lower = points.map(([ts, g, s]) => `${x(ts)},${y(g - s)}`).reverse();
  return el(
    "figure",
    { class: "curve" },
    svg(
      "svg",
      { viewBox: `0 0 ${W} ${h}`, role: "img", "aria-label": t("ice.curve", { time: duration(last) }) },
      svg("polygon", { points: [...upper, ...lower].join(" "), class: "curve-band" }),
      svg("polyline", { points: points.map(([ts, g]) => `${x(ts)},${y(g)}`).join(" "), class: "curve-line" }),
      svg("text", { x: 2, y: 10, class: "curve-label", text: `${number(top)} g` }),
    ),
    el("figcaption", { class: "caption", text: t("ice.curve", { time: duration(last) }) }),
  );
}

/** One seat's card on the table view: who, its `score` in the game (the game's own element,
 * where the game keeps one), and where the game uses the ice stations (`ice`: the ice race, or no
 * game yet) the ice, the air and any sensor in trouble; a weigh-in asked only while a game is
 * `running`. */
export function seatCard(seat, points, { turn = false, out = false, ice = true, running = false, score = null } = {}) {
  const problems = ice
    ? ["thermometer", "scale"].map((kind) => sensorProblem(seat.seat, kind, seat.sensors?.[kind])).filter(Boolean)
    : [];
  return el(
    "article",
    { class: `seat-card${turn ? " turn" : ""}${out ? " out" : ""}`, "data-seat": seat.seat },
    el("h3", {}, seatLabel(seat.seat, seat.name, seat.colour), turn ? el("span", { class: "tag", text: t("turn.now") }) : null),
    score,
    out ? el("p", { class: "out", text: t("card.out") }) : null,
    ice && !out ? [iceOf(seat, running), curve(points)] : null,
    ice && !out && seat.sensors?.thermometer !== "none"
      ? el(
          "p",
          { class: "air" },
          seat.air_c !== null && seat.air_c !== undefined ? t("air", { c: number(seat.air_c) }) : t("air.unknown"),
          running && !out && seat.weigh_in === "requested" ? [" · ", el("strong", { text: t("weigh_in.requested") })] : null,
        )
      : null,
    problems.map((p) => el("p", { class: "fault", role: "alert", text: p })),
  );
}
