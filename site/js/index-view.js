// Index page: fill each exercise's progress badge from what the exercise page
// saved in localStorage (mlex:progress:<id> = "solved" | "attempted").
import { storageGet } from "./storage.js";

const LABELS = { solved: "Solved", attempted: "Attempted" };

export function showProgress() {
  for (const badge of document.querySelectorAll("[data-progress-for]")) {
    const state = storageGet(`mlex:progress:${badge.dataset.progressFor}`);
    if (Object.hasOwn(LABELS, state ?? "")) {
      badge.textContent = LABELS[state];
      badge.classList.add(`progress-${state}`);
    }
  }
}
