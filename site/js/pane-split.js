// On wide screens the exercise page's statement and workspace sit side by side, split by
// a separator the learner can drag, or move with the arrow keys (WAI-ARIA window splitter:
// Home and End go to the narrowest and widest statement). The statement's share of the
// width, in percent, is remembered for every exercise. On narrow screens (the Problem and
// Code tabs, pane-tabs.js) the separator is hidden by style.css.
import { storageGet, storageSet } from "./storage.js";

const WIDTH_KEY = "mlex:layout:statement-width";
const STEP = 2; // percent per arrow key press

/** Set up the separator of the exercise page now in <main> (its listeners go with it when <main> is swapped). */
export function mountPaneSplit() {
  const separator = document.getElementById("pane-separator");
  if (!separator) return;
  const page = separator.parentElement;
  const min = Number(separator.getAttribute("aria-valuemin"));
  const max = Number(separator.getAttribute("aria-valuemax"));
  const fallback = Number(separator.getAttribute("aria-valuenow"));

  function apply(share, { save = false } = {}) {
    const shown = Math.round(Math.min(max, Math.max(min, share)));
    page.style.setProperty("--statement-width", `${shown}%`);
    separator.setAttribute("aria-valuenow", String(shown));
    separator.setAttribute("aria-valuetext", `Statement ${shown}% of the width`);
    if (save) storageSet(WIDTH_KEY, String(shown));
  }

  const current = () => Number(separator.getAttribute("aria-valuenow"));

  const onKeydown = (event) => {
    const moves = {
      ArrowLeft: current() - STEP, ArrowDown: current() - STEP,
      ArrowRight: current() + STEP, ArrowUp: current() + STEP,
      Home: min, End: max,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    apply(moves[event.key], { save: true });
  };

  // The share under the pointer, of the page's content box (where the grid's percentages apply).
  const shareAt = (clientX) => {
    const box = page.getBoundingClientRect();
    const style = getComputedStyle(page);
    const left = box.left + parseFloat(style.paddingLeft);
    const width = box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return ((clientX - left) / width) * 100;
  };
  const onPointerdown = (event) => {
    if (event.button !== 0) return;
    event.preventDefault(); // no text selection while dragging
    separator.setPointerCapture(event.pointerId);
    separator.focus();
    separator.classList.add("is-dragging");
  };
  const onPointermove = (event) => {
    if (separator.hasPointerCapture(event.pointerId)) apply(shareAt(event.clientX));
  };
  const onPointerup = (event) => {
    if (!separator.hasPointerCapture(event.pointerId)) return;
    separator.releasePointerCapture(event.pointerId);
    separator.classList.remove("is-dragging");
    apply(current(), { save: true });
  };

  separator.addEventListener("keydown", onKeydown);
  separator.addEventListener("pointerdown", onPointerdown);
  separator.addEventListener("pointermove", onPointermove);
  separator.addEventListener("pointerup", onPointerup);
  separator.addEventListener("pointercancel", onPointerup);
  apply(Number(storageGet(WIDTH_KEY)) || fallback);
  separator.hidden = false;
}
