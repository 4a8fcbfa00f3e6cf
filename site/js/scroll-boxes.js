// Boxes that scroll because their content is wider or taller than they are (a long
// formula, a code block, the results) become reachable with the keyboard (tabindex=0,
// so arrow keys scroll them), and a box that scrolls sideways fades out at the edge
// where more is hidden (style.css: .scroll-box[data-more]), so it shows that it scrolls.
// Boxes that fit stay out of the tab order. Content added later (hints, results) is watched too.

const CANDIDATES = "pre, .math-display, math, .prose table, #results";

/** Watch the boxes inside `root` (the page's <main>); returns a function that stops watching. */
export function watchScrollBoxes(root) {
  const sizes = new ResizeObserver((entries) => entries.forEach((entry) => update(entry.target)));
  const watched = new Set();
  const watch = (box) => {
    if (watched.has(box)) return;
    watched.add(box);
    sizes.observe(box);
    box.addEventListener("scroll", onScroll, { passive: true });
  };
  const watchWithin = (node) => {
    if (!(node instanceof Element)) return;
    if (node.matches(CANDIDATES)) watch(node);
    node.querySelectorAll(CANDIDATES).forEach(watch);
  };
  // New content, or content that changes size without the box changing (results replaced in #results).
  const additions = new MutationObserver((records) => {
    for (const record of records) {
      record.addedNodes.forEach(watchWithin);
      const box = record.target.closest?.(CANDIDATES);
      if (box && watched.has(box)) update(box);
    }
  });
  watchWithin(root);
  additions.observe(root, { childList: true, subtree: true });
  return () => {
    additions.disconnect();
    sizes.disconnect();
    watched.forEach((box) => box.removeEventListener("scroll", onScroll));
  };
}

function onScroll(event) {
  showHiddenSides(event.currentTarget);
}

function update(box) {
  const style = getComputedStyle(box);
  const scrolls = (scrollable(style.overflowX) && box.scrollWidth > box.clientWidth + 1)
    || (scrollable(style.overflowY) && box.scrollHeight > box.clientHeight + 1);
  if (scrolls && !box.hasAttribute("tabindex")) {
    box.tabIndex = 0;
    box.dataset.scrollBox = "";
  } else if (!scrolls && box.dataset.scrollBox !== undefined) {
    box.removeAttribute("tabindex"); // only boxes this module made focusable
    delete box.dataset.scrollBox;
  }
  box.classList.toggle("scroll-box", scrolls);
  showHiddenSides(box);
}

const scrollable = (overflow) => overflow === "auto" || overflow === "scroll";

// data-more: "left", "right", "left right" or absent, for the fade on each side that hides content.
function showHiddenSides(box) {
  const sides = [];
  if (box.scrollWidth > box.clientWidth + 1) {
    if (box.scrollLeft > 1) sides.push("left");
    if (box.scrollLeft + box.clientWidth < box.scrollWidth - 1) sides.push("right");
  }
  if (sides.length) box.dataset.more = sides.join(" ");
  else delete box.dataset.more;
}
