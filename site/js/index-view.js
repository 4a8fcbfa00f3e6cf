// Index page: fill each exercise's progress badge from what the exercise page
// saved in localStorage (mlex:progress:<id> = "solved" | "attempted").
// (It reads localStorage itself: importing storage.js would cost every page an extra shared chunk.)

const LABELS = { solved: "Solved", attempted: "Attempted" };

function readProgress(id) {
  try {
    return localStorage.getItem(`mlex:progress:${id}`);
  } catch {
    return null; // storage disabled (e.g. some private modes): show no progress
  }
}

export function showProgress() {
  for (const badge of document.querySelectorAll("[data-progress-for]")) {
    const state = readProgress(badge.dataset.progressFor);
    if (Object.hasOwn(LABELS, state ?? "")) {
      badge.textContent = LABELS[state];
      badge.classList.add(`progress-${state}`);
    }
  }
}
