// The table's voice: the ten-count in step with the counter, whose turn it is, and the calls the
// game marks as said aloud, through the browser's own speech synthesis (no network, no files) in
// the page's language; a short tick a count where no voice for it is installed.

import { el, lang, seatName, t } from "./common.js";

const KEPT = "companion.sound";
const LOCALES = { en: "en-GB", de: "de-DE" };
/** The pace (seconds a count) from which a count is said in words ("seven ice cubes"); faster,
 * only its number ("seven"), which fits in a count. */
const WORDS_FROM_S = 0.6;
/** How long a tick sounds, in seconds: a click, not a beep, at any pace. */
const TICK_S = 0.03;

const synth = globalThis.speechSynthesis ?? null;
const locale = LOCALES[lang] ?? lang;

/** The installed voice for the page's language: its own locale first, then any of the
 * language; null where none is. */
function voiceFor() {
  const voices = synth?.getVoices?.() ?? [];
  const of = (v) => String(v.lang).replace("_", "-").toLowerCase();
  return (
    voices.find((v) => of(v) === locale.toLowerCase()) ??
    voices.find((v) => of(v) === lang || of(v).startsWith(`${lang}-`)) ??
    null
  );
}

/**
 * The sound switch in the page's header, and what the page says: `hear(status)` is given every
 * snapshot, after the page has drawn it. `counts(count)` says which counts this page says (the
 * seat page: its own); `calls` whether it says whose turn it is and the marked lines.
 *
 * Only what happens while the page is open is said: not the lines it finds on loading, and not
 * again on a reconnection. A count has the voice: each number cancels whatever is still being
 * said, so the voice never lags the counter, and nothing else is said while a count runs.
 */
export function speaker({ counts = () => true, calls = true } = {}) {
  let on = localStorage.getItem(KEPT) === "on";
  let free = navigator.userActivation?.hasBeenActive ?? false;
  let audio = null;
  let heard;
  let counted = null;

  const hint = el("p", { class: "hint sound-hint", id: "sound-hint" });
  const button = el(
    "button",
    { type: "button", class: "secondary sound", "aria-pressed": String(on), "aria-describedby": hint.id, onclick: toggle },
    t("sound.switch"),
  );
  document.querySelector(".bar .languages")?.before(hint, button);
  synth?.addEventListener?.("voiceschanged", explain);
  synth?.getVoices?.();
  addEventListener("click", allow, true);
  addEventListener("keydown", allow, true);
  explain();

  /** Why the page is silent, while it is: a browser speaks only after a tap on the page. */
  function explain() {
    const text = !on ? t("sound.why") : !free ? t("sound.tap") : voiceFor() ? "" : t("sound.ticks");
    hint.textContent = text;
    hint.hidden = !text;
  }

  /** A tap on the page: from now on it may speak (Safari lets it once it spoke in a tap). */
  function allow() {
    if (free || !on) return;
    free = true;
    wake("");
    explain();
  }

  function toggle() {
    on = !on;
    free = true;
    localStorage.setItem(KEPT, on ? "on" : "off");
    button.setAttribute("aria-pressed", String(on));
    if (on) wake(t("sound.on"));
    else synth?.cancel();
    explain();
  }

  /** Start the voice, or the ticks, inside a tap, where a browser allows it. */
  function wake(text) {
    if (!voiceFor()) {
      const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
      audio ??= Context ? new Context() : null;
      audio?.resume?.();
      if (text) tick(false);
      return;
    }
    say(text, { volume: text ? 1 : 0 });
  }

  function say(text, { cut = false, rate = 1, volume = 1 } = {}) {
    const voice = voiceFor();
    if (!voice) return false;
    if (cut) {
      synth.cancel();
      synth.speak(new SpeechSynthesisUtterance("")); // Chromium on Linux drops the first after a cancel
    }
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = locale;
    utterance.voice = voice;
    utterance.rate = rate;
    utterance.volume = volume;
    synth.speak(utterance);
    return true;
  }

  /** A short click of a tone: a count where no voice is; the last one lower. */
  function tick(last) {
    if (!audio) return;
    const at = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = last ? 660 : 1320;
    gain.gain.setValueAtTime(0.3, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + TICK_S);
    tone.connect(gain).connect(audio.destination);
    tone.start(at);
    tone.stop(at + TICK_S);
  }

  function sayCount(count) {
    const words = count.pace_s >= WORDS_FROM_S ? t(`count.${count.n}`) : String(count.n);
    const rate = Math.min(2, Math.max(1, 0.8 / count.pace_s));
    if (!say(words, { cut: true, rate })) tick(count.n === count.of);
  }

  return function hear(status) {
    const live = on && free;
    const count = status.count;
    const mark = count?.n && counts(count) ? `${count.seat}:${count.n}` : null;
    if (mark && mark !== counted && live) sayCount(count);
    counted = mark;
    if (!calls) return;
    const game = status.game ?? null;
    const id = game?.commitment ?? null;
    const turn = game && !game.over ? game.turn_seat : null;
    const first = heard === undefined;
    if (first || heard.game !== id) {
      // what the page finds on opening was said before it opened; a new game is all new
      heard = { game: id, change: first ? (game?.changes ?? 0) : -1, turn: first ? turn : null };
    }
    const lines = (game?.told ?? []).filter((line) => line.aloud && line.change > heard.change);
    const turned = turn !== heard.turn;
    heard.change = Math.max(heard.change, game?.changes ?? 0);
    heard.turn = turn;
    if (!live || count) return;
    for (const line of lines) say(lang === "de" ? line.de : line.en);
    if (turned && turn !== null) {
      const seat = status.seats.find((s) => s.seat === turn);
      say(t("sound.turn", { name: seatName(turn, seat?.name) }));
    }
  };
}
