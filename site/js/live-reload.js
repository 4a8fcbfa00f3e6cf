// Live preview, only in pages built by `python build.py serve`: poll the server's
// build state; reload when a rebuild succeeds, show a failed build in a bar at the
// top that pushes the page down (never over the editor's buttons) until dismissed.
(() => {
  let seen = null;
  let dismissed = null; // the error the author closed; a different one shows again

  const banner = document.createElement("div");
  banner.className = "live-build-error";
  banner.setAttribute("role", "alert");
  banner.hidden = true;
  const message = document.createElement("p");
  message.className = "live-build-error-message";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "live-build-error-close";
  close.textContent = "Dismiss";
  close.setAttribute("aria-label", "Dismiss the build error");
  banner.append(message, close);
  // After the skip link, so that stays the first thing a keyboard reaches.
  const header = document.querySelector(".site-header");
  if (header) header.before(banner);
  else document.body.prepend(banner);

  // The sticky header and workspace sit below the bar (see .live-build-error in style.css).
  new ResizeObserver(() => {
    const height = banner.hidden ? 0 : banner.offsetHeight;
    document.documentElement.style.setProperty("--live-banner-height", `${height}px`);
  }).observe(banner);

  close.addEventListener("click", () => {
    dismissed = message.textContent;
    banner.hidden = true;
  });

  function show(error) {
    const text = error ? `Build failed: ${error}` : "";
    message.textContent = text;
    banner.hidden = !error || text === dismissed;
  }

  async function poll() {
    try {
      const response = await fetch("/__live/build", { cache: "no-store" });
      const state = await response.json();
      if (seen !== null && state.generation !== seen) {
        location.reload();
        return;
      }
      seen = state.generation;
      show(state.error);
    } catch {
      // The server is restarting or gone; keep trying.
    }
    setTimeout(poll, 1000);
  }
  poll();
})();
