// Index page: each exercise's progress badge (with what its first pass took: "after 2 runs, 1 hint")
// and each track's "3 of 19 solved" and "Continue" link, from what the exercise pages saved in localStorage
// (mlex:progress:<id> = "solved" | "attempted", mlex:solved-after:<id>), the "Continue" link of the whole
// index to where the learner left off, the "Your progress" section that exports and imports it
// (progress-file.js), and the filters (index-filters.js).
// (It reads localStorage itself: importing storage.js would cost every page an extra shared chunk.)
import { mountFilters } from "./index-filters.js";
import { collectProgress, MAX_FILE_BYTES, mergeProgress, readProgressFile } from "./progress-file.js";
import { parseSolvedAfter, SOLVED_AFTER_PREFIX, solvedAfterPhrase } from "./solved-after.js";

const LABELS = { solved: "Solved", attempted: "Attempted" };
const LAST_VISITED_KEY = "mlex:last-visited"; // the exercise page opened last (written by exercise-view.js)

function readStored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled (e.g. some private modes): show no progress
  }
}

function readSolvedAfter(id) {
  const text = readStored(`${SOLVED_AFTER_PREFIX}${id}`);
  try {
    return text === null ? null : parseSolvedAfter(text);
  } catch {
    return null;
  }
}

/** Set up the index page now in <main>; returns a function that takes it down. */
export function mountIndex() {
  showProgress();
  mountProgressTransfer();
  return mountFilters();
}

function showProgress() {
  const counts = { solved: 0, attempted: 0, all: 0 };
  const unsolved = []; // the steps not solved yet, in the index's order
  const lastVisited = readStored(LAST_VISITED_KEY);
  let whereLeftOff = null; // in the track of the step visited last: the first step not solved from it on, or the
  // track's first not solved
  for (const track of document.querySelectorAll(".track")) {
    const trackCounts = { solved: 0, attempted: 0 };
    let trackFirst = null; // the track's first step not solved yet
    let trackAfterLastVisited = null; // the same from the step visited last on, when it is in this track
    let trackHasLastVisited = false;
    const badges = track.querySelectorAll("[data-progress-for]");
    for (const badge of badges) {
      const id = badge.dataset.progressFor;
      const state = readStored(`mlex:progress:${id}`);
      const known = Object.hasOwn(LABELS, state ?? "");
      badge.textContent = known ? LABELS[state] : "";
      badge.className = known ? `progress progress-${state}` : "progress";
      const item = badge.closest(".exercise-item");
      item.classList.toggle("is-solved", state === "solved");
      showSolvedAfter(item, state === "solved" ? readSolvedAfter(id) : null);
      trackHasLastVisited ||= id === lastVisited;
      if (state !== "solved") {
        unsolved.push(item);
        trackFirst ??= item;
        if (trackHasLastVisited) trackAfterLastVisited ??= item;
      }
      if (known) trackCounts[state] += 1;
    }
    const count = track.querySelector(".track-count");
    count.dataset.total ??= count.textContent; // "19 exercises", shown while nothing is started
    count.textContent = trackCounts.solved + trackCounts.attempted === 0 ? count.dataset.total
      : `${trackCounts.solved} of ${badges.length} solved`
        + (trackCounts.attempted ? ` · ${trackCounts.attempted} attempted` : "");
    const trackNext = trackAfterLastVisited ?? trackFirst;
    if (trackHasLastVisited) whereLeftOff = trackNext;
    const link = track.querySelector(".track-continue"); // the same, for the track alone
    showContinue(link, ["verb", "step", "title"].map((part) => link?.querySelector(`.track-continue-${part}`)),
      trackNext, trackCounts.solved + trackCounts.attempted > 0);
    counts.solved += trackCounts.solved;
    counts.attempted += trackCounts.attempted;
    counts.all += badges.length;
  }
  const summary = document.getElementById("progress-summary");
  if (summary) {
    summary.textContent = counts.solved + counts.attempted === 0
      ? "Nothing started yet. Your work is saved in this browser as you go."
      : `You have solved ${counts.solved} of ${counts.all} exercises`
        + (counts.attempted ? ` and attempted ${counts.attempted} more.` : ".");
  }
  showContinue(document.getElementById("continue-link"),
    ["continue-verb", "continue-step", "continue-title"].map((id) => document.getElementById(id)),
    whereLeftOff ?? unsolved[0] ?? null, counts.solved + counts.attempted > 0);
}

// "after 2 runs, 1 hint" under the Solved badge (the badge's title says it whole); nothing when not known.
function showSolvedAfter(item, solvedAfter) {
  const line = item.querySelector(".solved-after");
  const phrase = solvedAfter && solvedAfterPhrase(solvedAfter);
  line.textContent = phrase ? phrase.replace(/^Solved /, "") : "";
  const badge = item.querySelector(".progress");
  if (phrase) badge.title = phrase;
  else badge.removeAttribute("title");
}

// "Start with step 1: ..." until something is started, then "Continue with step n: ...": where the learner
// left off, the exercise page opened last when it is not solved, else the first step of its track not solved
// after it (or, when there is none after it, the track's first not solved; when the track is all solved, the
// first step not solved of any track); hidden once every step is solved. `texts`: the link's verb, step and
// title elements.
function showContinue(link, texts, item, started) {
  if (!link) return;
  link.hidden = !item;
  if (!item) return;
  const title = item.querySelector(".exercise-link");
  link.href = title.getAttribute("href");
  const [verb, step, titleText] = texts;
  verb.textContent = started ? "Continue" : "Start";
  step.textContent = item.querySelector(".step").textContent;
  titleText.textContent = title.textContent;
}

function mountProgressTransfer() {
  const section = document.getElementById("your-progress");
  if (!section) return;
  const fileInput = document.getElementById("import-progress-file");
  const message = document.getElementById("progress-message");

  const say = (text, isError = false) => {
    message.textContent = text;
    message.classList.toggle("is-error", isError);
  };

  document.getElementById("export-progress").addEventListener("click", () => {
    let data;
    try {
      data = collectProgress(localStorage);
    } catch (err) {
      say(`This browser's storage cannot be read (${err.message}), so there is nothing to export.`, true);
      return;
    }
    const blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
    const link = Object.assign(document.createElement("a"), {
      href: URL.createObjectURL(blob),
      download: `ml-exercises-progress-${data.exported_at.slice(0, 10)}.json`,
    });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000); // once the download has its copy
    const saved = Object.keys(data.entries).length;
    say(`Exported ${saved} saved value${saved === 1 ? "" : "s"} to ${link.download}.`);
  });

  document.getElementById("import-progress").addEventListener("click", () => fileInput.click());
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files[0];
    fileInput.value = ""; // choosing the same file again is a new import
    if (!file) return;
    try {
      const text = file.size <= MAX_FILE_BYTES ? await file.text() : ""; // a larger one is refused unread
      const exercises = mergeProgress(localStorage, readProgressFile(text, file.size));
      showProgress();
      document.getElementById("exercise-filters")?.dispatchEvent(new Event("input")); // "Unsolved only" may change
      say(`Imported ${file.name}: code and progress for ${exercises.size} exercise${exercises.size === 1 ? "" : "s"}.`);
    } catch (err) {
      say(`Nothing was imported from ${file.name}. ${err.message}`, true);
    }
  });
}
