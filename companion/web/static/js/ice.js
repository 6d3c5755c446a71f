// A seat's ice as the sensors know it: a gauge with its uncertainty drawn, and the melt curve.

import { duration, el, number, sensorProblem, seatLabel, svg, t } from "./common.js";

const W = 220;

/** Sigma with the digits it deserves: 0.04 g is not 0.0 g. */
const spread = (sigma) => number(sigma, sigma < 0.1 ? 2 : 1);

/** The gauge: grams left as a bar of the start weight, the band two sigmas wide around it. */
export function gauge(ice) {
  if (!ice) return el("p", { class: "ice-none", text: t("ice.unknown") });
  if (ice.melted) return el("p", { class: "ice-melted", text: t("ice.melted") });
  const full = ice.percent > 0 ? (ice.grams * 100) / ice.percent : ice.grams;
  const scale = (g) => Math.max(0, Math.min(W, (g / (full || 1)) * W));
  const low = scale(ice.grams - 2 * ice.sigma_g);
  const high = scale(ice.grams + 2 * ice.sigma_g);
  return el(
    "div",
    { class: "gauge" },
    svg(
      "svg",
      { viewBox: `0 0 ${W} 22`, role: "img", "aria-label": t("ice.gauge", { g: number(ice.grams), sigma: spread(ice.sigma_g) }) },
      svg("rect", { x: 0, y: 3, width: W, height: 16, rx: 4, class: "gauge-empty" }),
      svg("rect", { x: 0, y: 3, width: scale(ice.grams), height: 16, rx: 4, class: "gauge-ice" }),
      svg("rect", { x: low, y: 0, width: Math.max(2, high - low), height: 22, class: "gauge-band" }),
      svg("line", { x1: scale(ice.grams), x2: scale(ice.grams), y1: 0, y2: 22, class: "gauge-mark" }),
    ),
    el(
      "p",
      { class: "ice-words" },
      el("strong", { text: t("ice.grams", { g: number(ice.grams), sigma: spread(ice.sigma_g) }) }),
      " · ",
      t("ice.percent", { p: Math.round(ice.percent) }),
      ice.eta_s !== null && ice.eta_s !== undefined ? [" · ", t("ice.eta", { time: duration(ice.eta_s) })] : null,
    ),
  );
}

/** The melt curve since the start: the estimate's line inside its one-sigma band. */
export function curve(points) {
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

/** One seat's card on the table view: who, the ice (in the ice race), the air, and any sensor
 * in trouble. */
export function seatCard(seat, points, { turn = false, out = false, ice = true } = {}) {
  const problems = ["thermometer", "scale"]
    .map((kind) => sensorProblem(seat.seat, kind, seat.sensors?.[kind]))
    .filter(Boolean);
  return el(
    "article",
    { class: `seat-card${turn ? " turn" : ""}${out ? " out" : ""}`, "data-seat": seat.seat },
    el("h3", {}, seatLabel(seat.seat, seat.name, seat.colour), turn ? el("span", { class: "tag", text: t("turn.now") }) : null),
    ice ? [gauge(seat.ice), curve(points)] : null,
    el(
      "p",
      { class: "air" },
      seat.air_c !== null && seat.air_c !== undefined ? t("air", { c: number(seat.air_c) }) : t("air.unknown"),
      seat.weigh_in === "requested" ? [" · ", el("strong", { text: t("weigh_in.requested") })] : null,
    ),
    problems.map((p) => el("p", { class: "fault", role: "alert", text: p })),
  );
}
