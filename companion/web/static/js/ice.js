// A seat's ice as the sensors know it: a gauge with its uncertainty drawn and the countdown.

import { duration, el, number, svg, t } from "./common.js";

export const W = 220;

/** Sigma with the digits it deserves: 0.04 g is not 0.0 g, and 0.13 g is not 0.1 g. */
const spread = (sigma) => number(sigma, sigma < 1 ? 2 : 1);

/** A seat's ice as its table knows it (`seat`: the seat's status): with a pad, the gauge; without
 * one, the countdown from the air alone where the table knows the air (only while a game is
 * `running`: a guess is worth nothing once it is over), else the words that its player says when
 * the cube has melted; with a pad not calibrated yet, that it must be set up (its grams would be
 * wrong). */
export function iceOf(seat, running = true) {
  if (seat.ice?.basis === "air") return running ? airCountdown(seat.ice) : null;
  if (seat.sensors?.scale === "none") return running ? el("p", { class: "ice-none", text: t("ice.no_pad") }) : null;
  if (seat.uncalibrated?.length) return el("p", { class: "ice-none uncalibrated", role: "status", text: t("ice.uncalibrated", { seat: seat.seat }) });
  return gauge(seat.ice);
}

/** "about 55 min, from the room's air alone (no scale)": never grams, and never a call. */
function airCountdown(ice) {
  if (!ice.eta_s) return el("p", { class: "ice-air", text: t("ice.air.gone") });
  const [soonest, latest] = (ice.eta_range_s ?? [ice.eta_s, ice.eta_s]).map(duration);
  return el("p", { class: "ice-air" }, t("ice.air", { time: duration(ice.eta_s), soonest, latest }));
}

/** The gauge: the share of the cube left before the table calls it melted, with the band two
 * sigmas wide around it; the grams, and the countdown to that moment as a range. */
export function gauge(ice) {
  if (!ice) return el("p", { class: "ice-none", text: t("ice.unknown") });
  if (ice.melted) return el("p", { class: "ice-melted", text: t("ice.melted") });
  const x = (percent) => Math.max(0, Math.min(W, (percent / 100) * W));
  const [low, high] = (ice.band ?? [ice.percent, ice.percent]).map(x);
  return el(
    "div",
    { class: "gauge" },
    svg(
      "svg",
      { viewBox: `0 0 ${W} 22`, role: "img", "aria-label": t("ice.gauge", { g: number(ice.grams), sigma: spread(ice.sigma_g) }) },
      svg("rect", { x: 0, y: 3, width: W, height: 16, rx: 4, class: "gauge-empty" }),
      svg("rect", { x: 0, y: 3, width: x(ice.percent), height: 16, rx: 4, class: "gauge-ice" }),
      svg("rect", { x: low, y: 0, width: Math.max(2, high - low), height: 22, class: "gauge-band" }),
      svg("line", { x1: x(ice.percent), x2: x(ice.percent), y1: 0, y2: 22, class: "gauge-mark" }),
    ),
    el(
      "p",
      { class: "ice-words" },
      el("strong", { text: t("ice.grams", { g: number(ice.grams), sigma: spread(ice.sigma_g) }) }),
      " · ",
      t("ice.percent", { p: Math.round(ice.percent) }),
      countdown(ice),
    ),
  );
}

/** "gone in 35 min – 50 min", "still learning" before the weigh-ins have earned it a number. */
function countdown(ice) {
  if (!ice.eta_range_s) return null;
  const [soonest, latest] = ice.eta_range_s.map(duration);
  const range = soonest === latest ? t("ice.eta", { time: soonest }) : t("ice.eta_range", { soonest, latest });
  const learning = ice.learning
    ? el("span", { class: "learning" }, t("ice.learning"), el("span", { class: "why", text: t("ice.learning.why") }), ": ")
    : null;
  return [" · ", learning, range];
}
