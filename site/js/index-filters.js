// Index page: find an exercise by text (title, summary, tags), difficulty and tag, and keep only the
// steps not solved yet (the rows index-view.js marks .is-solved). The filters live in the URL
// (index.html?q=...&difficulty=...&tag=...&unsolved=1), so that a tag on an exercise page links to the index
// filtered by it and a filtered index can be shared or reloaded.

const PARAMS = ["q", "difficulty", "tag", "unsolved"];

/** Set up the filter form of the index now in <main>; returns a function that takes it down. */
export function mountFilters() {
  const form = document.getElementById("exercise-filters");
  if (!form) return () => {};
  const fields = { q: form.elements.q, difficulty: form.elements.difficulty, tag: form.elements.tag,
    unsolved: form.elements.unsolved };
  const rows = [...document.querySelectorAll(".exercise-item")].map((item) => ({
    item,
    difficulty: item.dataset.difficulty,
    tags: item.dataset.tags.split(" "),
    text: [item.querySelector(".exercise-link").textContent, item.querySelector(".exercise-blurb")?.textContent,
      item.dataset.tags].join(" ").toLowerCase(),
  }));

  const params = new URLSearchParams(location.search);
  for (const name of PARAMS) {
    const value = params.get(name) ?? "";
    if (name === "unsolved") fields.unsolved.checked = value === "1";
    // A tag or difficulty the select does not offer (a stale link) is ignored rather than matching nothing.
    else if (name === "q" || [...fields[name].options].some((option) => option.value === value)) {
      fields[name].value = value;
    }
  }

  const apply = () => {
    const words = fields.q.value.toLowerCase().split(/\s+/).filter(Boolean);
    const difficulty = fields.difficulty.value;
    const tag = fields.tag.value;
    const unsolved = fields.unsolved.checked;
    let shown = 0;
    for (const row of rows) {
      const match = words.every((word) => row.text.includes(word))
        && (!difficulty || row.difficulty === difficulty) && (!tag || row.tags.includes(tag))
        && (!unsolved || !row.item.classList.contains("is-solved"));
      row.item.hidden = !match;
      if (match) shown += 1;
    }
    // A part or track with no matching row is hidden with its heading.
    for (const group of document.querySelectorAll(".track-part, .track")) {
      group.hidden = !group.querySelector(".exercise-item:not([hidden])");
    }
    const filtered = words.length > 0 || difficulty || tag || unsolved;
    const all = rows.length;
    document.getElementById("filter-count").textContent = filtered
      ? `${shown} of ${all} exercises match` : `${all} exercise${all === 1 ? "" : "s"}`;
    document.getElementById("no-match").hidden = shown > 0;
    form.classList.toggle("is-filtered", Boolean(filtered));
    rememberInUrl();
  };

  const rememberInUrl = () => {
    const url = new URL(location.href);
    for (const name of PARAMS) {
      const value = name === "unsolved" ? (fields.unsolved.checked ? "1" : "") : fields[name].value;
      if (value) url.searchParams.set(name, value);
      else url.searchParams.delete(name);
    }
    if (url.href !== location.href) history.replaceState(history.state, "", url.href);
  };

  const clear = () => {
    form.reset();
    apply();
    fields.q.focus();
  };
  // A tag on a row filters in place rather than loading the index again.
  const onTagClick = (event) => {
    const link = event.target.closest?.(".exercise-item a.tag");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    fields.tag.value = link.dataset.tag;
    apply();
    form.scrollIntoView({ block: "nearest" });
  };
  const onSubmit = (event) => event.preventDefault(); // Enter in the search box: the list is already filtered
  const main = document.getElementById("main");
  const clearButton = document.getElementById("clear-filters");

  form.addEventListener("input", apply);
  form.addEventListener("submit", onSubmit);
  clearButton.addEventListener("click", clear);
  main.addEventListener("click", onTagClick);
  apply();
  return () => main.removeEventListener("click", onTagClick); // the form and rows go with the page
}
