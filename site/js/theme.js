// The colour theme: the system's (the default), or light or dark as chosen with the switch in
// the site header, remembered in localStorage. The inline script in base.html's <head> sets
// data-theme on <html> from the saved choice before the first paint (style.css turns it into
// color-scheme); this module wires the switch and keeps data-scheme on <html> at the scheme in
// effect, "light" or "dark", for what CSS cannot colour itself (the editor follows it).
// (It reads localStorage itself, as index-view.js does: storage.js would cost every page a shared chunk.)

export const THEME_KEY = "mlex:theme"; // "light" | "dark"; absent: follow the system
const darkQuery = window.matchMedia("(prefers-color-scheme: dark)");

function savedChoice() {
  try {
    const choice = localStorage.getItem(THEME_KEY);
    return choice === "light" || choice === "dark" ? choice : "system";
  } catch {
    return "system";
  }
}

function apply(choice) {
  const root = document.documentElement;
  if (choice === "system") delete root.dataset.theme;
  else root.dataset.theme = choice;
  root.dataset.scheme = choice === "system" ? (darkQuery.matches ? "dark" : "light") : choice;
}

/** Applies the saved choice, and follows the system's scheme and the choice made in other tabs. */
export function startTheme() {
  apply(savedChoice());
  darkQuery.addEventListener("change", () => apply(savedChoice()));
  window.addEventListener("storage", (event) => {
    if (event.key === THEME_KEY || event.key === null) {
      apply(savedChoice());
      showChoice();
    }
  });
}

// The header is replaced on every in-page navigation: its radios show the choice again.
function showChoice() {
  const radio = document.querySelector(`.theme-switch input[value="${savedChoice()}"]`);
  if (radio) radio.checked = true;
}

/** Wires the header's switch (radios named "theme": system, light, dark). */
export function mountThemeSwitch() {
  const group = document.querySelector(".theme-switch");
  if (!group) return;
  showChoice();
  group.addEventListener("change", (event) => {
    const choice = event.target.value;
    try {
      if (choice === "system") localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, choice);
    } catch {
      // storage unavailable: the choice holds for this page only
    }
    apply(choice);
  });
}
