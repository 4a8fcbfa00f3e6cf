// In-page navigation between the site's pages. A click on a link to another page
// of the site fetches that page and swaps its <main>, title and <body> data in,
// so the document, and with it the warm Python runtime, stays. The URL, history
// and back/forward behave as with ordinary links; whatever cannot be swapped in
// (another site, a failed fetch, a page built with other scripts) is left to a
// normal navigation. Without JavaScript the links are plain links.
//
// Each history entry keeps its scroll position (the window's, and that of each element marked
// data-keep-scroll, by id), restored on back/forward and when the document loads again (a reload,
// or a return to the site that was not kept in the back/forward cache).

/**
 * siteRoot: URL of the site's root folder; only pages below it are swapped.
 * leave() runs before the current page is taken down, enter() after the new one is in.
 */
export function startNavigation(siteRoot, { leave, enter }) {
  const rootPath = new URL(siteRoot).pathname;
  const pageScript = document.querySelector("script[type=module]")?.src;
  let shownPath = pathOf(location);
  let latest = 0; // the navigation whose page may be shown; earlier ones are stale
  // Back and forward change the history entry before the page hears of it, so the position of the page
  // left then cannot go into its entry: it is kept here, by the entry's key, for as long as the document.
  let shownKey = history.state?.key ?? newEntryKey();
  const leftPositions = new Map();
  if (history.state?.key !== shownKey) history.replaceState({ ...history.state, key: shownKey }, "");

  history.scrollRestoration = "manual"; // scroll is restored once the old page is back in
  let scrollTimer = null;
  const keepPosition = () => {
    clearTimeout(scrollTimer);
    history.replaceState({ ...history.state, scroll: restoringTo ?? scrollPositions() }, "");
  };
  // Capture: the scroll events of elements do not bubble.
  document.addEventListener("scroll", () => {
    clearTimeout(scrollTimer);
    scrollTimer = setTimeout(keepPosition, 200);
  }, { passive: true, capture: true });
  window.addEventListener("pagehide", keepPosition);
  if (history.state?.scroll) restoreScroll(history.state.scroll);
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey
        || event.shiftKey || event.altKey || (link.target && link.target !== "_self") || link.hasAttribute("download")) {
      return;
    }
    const url = new URL(link.href);
    if (!isSitePage(url) || (pathOf(url) === shownPath && url.hash)) return; // an anchor on this page
    event.preventDefault();
    navigate(url, { push: true });
  });
  window.addEventListener("popstate", (event) => {
    if (pathOf(location) === shownPath) return; // a move between anchors of the shown page
    leftPositions.set(shownKey, scrollPositions());
    const key = event.state?.key ?? newEntryKey();
    navigate(new URL(location.href), { push: false, key, scroll: leftPositions.get(key) ?? event.state?.scroll ?? {} });
  });

  function isSitePage(url) {
    return url.origin === location.origin && url.pathname.startsWith(rootPath)
      && (url.pathname.endsWith("/") || url.pathname.endsWith(".html"));
  }

  async function navigate(url, { push, key = newEntryKey(), scroll = {} }) {
    const id = ++latest;
    clearTimeout(scrollTimer); // its position belongs to the entry being left
    let doc;
    try {
      const response = await fetch(url.href, { headers: { Accept: "text/html" } });
      if (!response.ok || !response.headers.get("Content-Type")?.startsWith("text/html")) throw new Error();
      doc = new DOMParser().parseFromString(await response.text(), "text/html");
    } catch {
      doc = null;
    }
    if (id !== latest) return;
    const main = doc?.getElementById("main");
    const script = doc?.querySelector("script[type=module]");
    // A page of another build runs other scripts: it needs a document of its own.
    if (!main || !script || new URL(script.getAttribute("src"), url).href !== pageScript) {
      if (push) location.assign(url.href);
      else location.reload();
      return;
    }
    if (push) history.replaceState({ ...history.state, scroll: scrollPositions() }, "");
    leave();
    document.title = doc.title;
    for (const name of Object.keys(document.body.dataset)) delete document.body.dataset[name];
    Object.assign(document.body.dataset, doc.body.dataset);
    document.getElementById("main").replaceWith(document.adoptNode(main));
    // The header's links are relative to the page too (the site may live in any folder).
    const header = doc.querySelector(".site-header");
    if (header) document.querySelector(".site-header")?.replaceWith(document.adoptNode(header));
    if (push) history.pushState({ scroll: {}, key }, "", url.href);
    else history.replaceState({ ...history.state, scroll }, ""); // positions kept in leftPositions may be newer
    shownPath = pathOf(url);
    shownKey = key;
    enter();
    showPosition(url, push ? null : scroll);
  }
}

// New pages start at their anchor or top, with focus on the main heading so that
// a screen reader announces the page; pages from the history get their scroll back.
function showPosition(url, scroll) {
  const heading = document.querySelector("main h1");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
  const anchor = url.hash && document.getElementById(decodeURIComponent(url.hash.slice(1)));
  if (scroll !== null) restoreScroll(scroll);
  else if (anchor) anchor.scrollIntoView();
  else window.scrollTo(0, 0);
}

const RESTORE_FOR_MS = 10_000; // at most; the learner's first scroll or key ends it sooner
let restoringTo = null; // the positions being restored: what the entry keeps meanwhile, not the partial ones

// {window: y, [id]: top of each element marked data-keep-scroll}
function scrollPositions() {
  const positions = { window: window.scrollY };
  for (const box of document.querySelectorAll("[data-keep-scroll][id]")) positions[box.id] = box.scrollTop;
  return positions;
}

// Scrolls back to `positions` (as scrollPositions() took them). A page still growing (the editor mounts once
// its chunk has loaded, later on a busy machine) is scrolled again as it grows, until the positions are reached,
// the learner scrolls or types, or RESTORE_FOR_MS have passed.
function restoreScroll(positions) {
  const apply = () => {
    let reached = true;
    for (const [id, top] of Object.entries(positions)) {
      const box = id === "window" ? document.scrollingElement : document.getElementById(id);
      if (!box || !Number.isFinite(top)) continue;
      box.scrollTop = top;
      reached &&= Math.abs(box.scrollTop - top) < 2;
    }
    return reached;
  };
  if (apply()) return;
  restoringTo = positions;
  const growing = new ResizeObserver(() => apply() && stop());
  const inputs = ["wheel", "touchstart", "keydown", "pointerdown"];
  const stop = () => {
    if (restoringTo === positions) restoringTo = null;
    growing.disconnect();
    clearTimeout(timer);
    for (const type of inputs) window.removeEventListener(type, stop, true);
  };
  const timer = setTimeout(stop, RESTORE_FOR_MS);
  for (const type of inputs) window.addEventListener(type, stop, { capture: true, passive: true });
  growing.observe(document.body);
}

function newEntryKey() {
  return Math.random().toString(36).slice(2);
}

function pathOf(url) {
  return url.pathname + url.search;
}
