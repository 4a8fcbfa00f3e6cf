// The editor's settings, shared by every exercise and remembered in localStorage: font size,
// line wrapping, a compact gutter (by default on phones, where the full one takes a quarter
// of the width) and whether Tab indents. The "⚙ Editor" menu above the editor changes them;
// #editor-keys in it says how the keyboard leaves the editor with the current Tab setting.
import { storageGet, storageSet } from "./storage.js";

const SETTINGS_KEY = "mlex:editor-settings"; // JSON: the settings the learner changed
const MIN_FONT_SIZE = 12;
const MAX_FONT_SIZE = 20;
// Must match the phone width of the checks: narrower screens get the compact gutter by default.
const PHONE = "(max-width: 390px)";
const DEFAULTS = { fontSize: 14, wrap: true, tabIndents: false };

const TAB_MOVES_ON = "Tab moves on to the next control; Ctrl+] and Ctrl+[ indent and dedent the line.";
const TAB_INDENTS = "Tab indents. To leave the editor, press Esc then Tab.";

// The saved settings, each checked (another version of the site, or a progress file, may have stored anything).
function savedSettings() {
  let saved;
  try {
    saved = JSON.parse(storageGet(SETTINGS_KEY));
  } catch {
    saved = null;
  }
  if (saved === null || typeof saved !== "object") return {};
  const valid = {};
  if (Number.isInteger(saved.fontSize) && saved.fontSize >= MIN_FONT_SIZE && saved.fontSize <= MAX_FONT_SIZE) {
    valid.fontSize = saved.fontSize;
  }
  for (const name of ["wrap", "tabIndents", "compactGutter"]) {
    if (typeof saved[name] === "boolean") valid[name] = saved[name];
  }
  return valid;
}

/**
 * The editor's settings now: {fontSize, wrap, compactGutter, tabIndents}; the gutter is compact on
 * phones unless the learner chose.
 */
export function editorSettings() {
  return { ...DEFAULTS, compactGutter: window.matchMedia(PHONE).matches, ...savedSettings() };
}

/**
 * Wire the settings menu (#editor-settings) of the page now in <main>: `apply(settings)` is called
 * with every change (and when a phone turns, while the gutter follows the width). Returns unmount().
 */
export function mountEditorSettings(apply) {
  const menu = document.getElementById("editor-settings");
  const fontSize = document.getElementById("editor-font-size");
  const checkboxes = {
    wrap: document.getElementById("editor-wrap"),
    compactGutter: document.getElementById("editor-compact-gutter"),
    tabIndents: document.getElementById("editor-tab-indents"),
  };
  const keysHelp = document.getElementById("editor-keys");
  const phone = window.matchMedia(PHONE);

  function show(settings) {
    fontSize.value = String(settings.fontSize);
    for (const [name, box] of Object.entries(checkboxes)) box.checked = settings[name];
    keysHelp.textContent = settings.tabIndents ? TAB_INDENTS : TAB_MOVES_ON;
  }

  function change(name, value) {
    storageSet(SETTINGS_KEY, JSON.stringify({ ...savedSettings(), [name]: value }));
    const settings = editorSettings();
    show(settings);
    apply(settings);
  }

  fontSize.addEventListener("change", () => change("fontSize", Number(fontSize.value)));
  for (const [name, box] of Object.entries(checkboxes)) {
    box.addEventListener("change", () => change(name, box.checked));
  }
  // Escape closes the open menu and gives the focus back to its summary.
  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.open) return;
    menu.open = false;
    menu.querySelector("summary").focus();
  });
  // It lies over the editor: it closes when the focus moves elsewhere (into the code, say).
  menu.addEventListener("focusout", (event) => {
    if (event.relatedTarget && !menu.contains(event.relatedTarget)) menu.open = false;
  });
  const followWidth = () => {
    const settings = editorSettings();
    show(settings);
    apply(settings);
  };
  phone.addEventListener("change", followWidth);
  show(editorSettings());
  return () => phone.removeEventListener("change", followWidth);
}
