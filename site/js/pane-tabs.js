// On narrow screens the exercise page shows its two columns, Problem and Code, as two
// tabs (WAI-ARIA tabs pattern: arrows, Home and End move between the tabs), so the
// editor is one tap away instead of below the whole statement. On wide screens, and
// without JavaScript, both columns show side by side (or stacked) and the tabs are hidden.
// The tab chosen last is remembered per exercise (a new exercise opens on its Problem).
// (It reads localStorage itself: importing storage.js would cost every page an extra shared chunk.)

// Must match the width below which style.css stacks the columns.
const NARROW = "(max-width: 62rem)";

/** Set up the tabs of the exercise page now in <main>; returns a function that takes them down. */
export function mountPaneTabs() {
  const tablist = document.getElementById("pane-tabs");
  if (!tablist) return () => {};
  const tabs = [...tablist.querySelectorAll("[role=tab]")];
  const panes = tabs.map((tab) => document.getElementById(tab.getAttribute("aria-controls")));
  const scrollPositions = new Map(); // each pane keeps its own scroll position
  const tabKey = `mlex:tab:${document.body.dataset.exerciseId}`;
  let selected = Math.max(0, tabs.findIndex((tab) => tab.id === readStored(tabKey)));
  const narrow = window.matchMedia(NARROW);

  function markSelected() {
    tabs.forEach((tab, i) => {
      tab.setAttribute("aria-selected", String(i === selected));
      tab.tabIndex = i === selected ? 0 : -1;
    });
  }

  function select(index, { focus = false } = {}) {
    if (index !== selected) {
      scrollPositions.set(selected, window.scrollY);
      selected = index;
      store(tabKey, tabs[selected].id);
      markSelected();
      applyWidth();
      // Back where the learner was in this pane; a pane seen for the first time starts at its top.
      window.scrollTo(0, scrollPositions.get(selected) ?? 0);
    }
    if (focus) tabs[selected].focus();
  }

  // Tab panels only while the tabs show; side by side the columns are plain regions.
  function applyWidth() {
    tablist.hidden = !narrow.matches;
    panes.forEach((pane, i) => {
      if (narrow.matches) {
        pane.setAttribute("role", "tabpanel");
        pane.setAttribute("aria-labelledby", tabs[i].id);
        pane.hidden = i !== selected;
      } else {
        pane.removeAttribute("role");
        pane.removeAttribute("aria-labelledby");
        pane.hidden = false;
      }
    });
  }

  const onClick = (event) => {
    const index = tabs.indexOf(event.target.closest("[role=tab]"));
    if (index >= 0) select(index);
  };
  const onKeydown = (event) => {
    const moves = { ArrowRight: selected + 1, ArrowLeft: selected - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select((moves[event.key] + tabs.length) % tabs.length, { focus: true });
  };
  // Ctrl/⌘+Enter runs the tests from either tab; their results are on the Code tab.
  const codeTab = tabs.findIndex((tab) => tab.id === "pane-tab-code");
  const onRunShortcut = (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && narrow.matches) select(codeTab);
  };
  tablist.addEventListener("click", onClick);
  tablist.addEventListener("keydown", onKeydown);
  window.addEventListener("keydown", onRunShortcut, true);
  narrow.addEventListener("change", applyWidth);
  markSelected();
  applyWidth();

  return () => {
    narrow.removeEventListener("change", applyWidth);
    window.removeEventListener("keydown", onRunShortcut, true);
  };
}

function readStored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled: every exercise opens on its first tab
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not remembered: nothing else depends on it
  }
}
