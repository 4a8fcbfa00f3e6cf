// A "Copy" button on each code block of the exercise page: the statement's and the hints'
// examples, and the reference solution once it shows. A click copies the block's text; the
// button says "Copied" for a moment, and a live region says it to screen readers.

const BLOCKS = "#statement pre.code-block, #hints pre.code-block, #solution pre.code-block";
const SAID_FOR_MS = 2000;

/** Add the buttons to the exercise page now in `main` (they go with it when <main> is swapped). */
export function addCopyButtons(main) {
  const said = Object.assign(document.createElement("p"), { className: "visually-hidden" });
  said.setAttribute("role", "status");
  main.append(said);
  for (const block of main.querySelectorAll(BLOCKS)) {
    const frame = Object.assign(document.createElement("div"), { className: "code-frame" });
    const button = Object.assign(document.createElement("button"), { type: "button", className: "copy-button" });
    button.textContent = "Copy";
    button.addEventListener("click", () => copy(block.textContent, button, said));
    block.before(frame);
    frame.append(block, button);
  }
}

async function copy(text, button, said) {
  let outcome;
  try {
    await navigator.clipboard.writeText(text);
    outcome = ["Copied", "The code is copied to the clipboard."];
  } catch {
    outcome = ["Not copied", "The browser did not let the page copy: select the code and copy it."];
  }
  [button.textContent, said.textContent] = outcome;
  clearTimeout(button.resetTimer);
  button.resetTimer = setTimeout(() => {
    button.textContent = "Copy";
    said.textContent = "";
  }, SAID_FOR_MS);
}
