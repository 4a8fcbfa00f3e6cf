// When this browser's storage for the site is full, the exercise page says what it could not
// save (the learner's code above all) in a visible alert, #storage-notice, and offers to clear
// the saved test results of every exercise (code, progress and attempts stay), then saves again.
import { RESULTS_PREFIX } from "./saved-results.js";
import { isStorageFull, storageRemoveAll } from "./storage.js";

export class StorageNotice {
  constructor() {
    this.root = document.getElementById("storage-notice");
    this.text = document.getElementById("storage-notice-text");
    this.button = document.getElementById("clear-results-button");
    this.unsaved = new Map(); // what could not be saved ("your latest code") -> how to save it again
    this.onClear = () => this.clearResults();
    this.button.addEventListener("click", this.onClear);
  }

  /**
   * Saves through `save` (returns storageSet's result); `what` names it for the learner. A failure
   * because storage is full shows the notice; a later success of everything unsaved hides it.
   */
  save(what, save) {
    const error = save();
    if (error === null) {
      if (this.unsaved.delete(what) && this.unsaved.size === 0) this.root.hidden = true;
    } else if (isStorageFull(error)) {
      this.unsaved.set(what, save);
      this.show(`This browser's storage for this site is full, so ${this.list()} not saved. Clearing the saved `
        + "test results of all exercises (your code and progress stay) usually makes room.", true);
    }
  }

  clearResults() {
    const cleared = storageRemoveAll(RESULTS_PREFIX);
    const list = this.list();
    for (const [what, save] of this.unsaved) {
      if (save() === null) this.unsaved.delete(what);
    }
    const results = `the saved results of ${cleared} exercise${cleared === 1 ? "" : "s"}`;
    if (this.unsaved.size === 0) {
      this.show(`Cleared ${results}: ${list} saved again.`, false);
    } else {
      this.show(`Cleared ${results}, but the storage is still full, so ${this.list()} not saved. Copy your `
        + "code somewhere safe, export your progress from the index page and free this site's storage in "
        + "the browser's settings.", false);
    }
    this.root.focus(); // the button it had is gone
  }

  // "your latest code is", "your latest code and the results of this run are"
  list() {
    const names = [...this.unsaved.keys()];
    return `${names.join(" and ")} ${names.length === 1 ? "is" : "are"}`;
  }

  show(text, offerClearing) {
    this.text.textContent = text;
    this.button.hidden = !offerClearing;
    this.root.hidden = false;
  }

  unmount() {
    this.button.removeEventListener("click", this.onClear);
  }
}
