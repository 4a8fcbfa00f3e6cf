// Reset puts the starter code back in the editor. It asks in place ("Replace your code with
// the starter? Reset / Cancel") rather than with the browser's blocking confirm(), and then
// offers Undo, which puts back the code from before the reset. The reset is an ordinary edit
// too, so Ctrl/⌘+Z in the editor also undoes it. The offer lasts until the learner's next edit.
import { setText } from "./editor.js";

/**
 * Wire Reset for the editor `view`: `starter` is the starter code, `save()` stores the editor's code at once.
 * Returns codeChanged(), to call after every edit of the editor. (The buttons go with the page: no unmount.)
 */
export function mountReset(view, starter, save) {
  const resetButton = document.getElementById("reset-button");
  const question = document.getElementById("reset-confirm");
  const yes = document.getElementById("reset-yes");
  const no = document.getElementById("reset-no");
  const status = document.getElementById("reset-status");
  const undo = document.getElementById("reset-undo");
  let replaced = null; // the code the last reset replaced, while Undo is offered
  let replacing = false; // our own edits do not end the offer

  function show({ asking = false, offering = false, message = "" }) {
    question.hidden = !asking;
    undo.hidden = !offering;
    resetButton.hidden = asking || offering;
    status.textContent = message;
  }

  function replaceText(text) {
    replacing = true;
    setText(view, text);
    replacing = false;
    save();
  }

  resetButton.addEventListener("click", () => {
    show({ asking: true });
    yes.focus();
  });
  no.addEventListener("click", () => {
    show({});
    resetButton.focus();
  });
  question.addEventListener("keydown", (event) => {
    if (event.key === "Escape") no.click();
  });
  yes.addEventListener("click", () => {
    replaced = view.state.doc.toString();
    replaceText(starter);
    show({ offering: true, message: "Code reset to the starter." });
    undo.focus();
  });
  undo.addEventListener("click", () => {
    replaceText(replaced);
    replaced = null;
    show({ message: "Your code is back." });
    resetButton.focus();
  });

  return function codeChanged() {
    if (replacing || !status.textContent) return;
    replaced = null;
    show({});
  };
}
