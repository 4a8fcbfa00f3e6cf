// Live preview, only in pages built by `python build.py serve`: poll the server's
// build state; reload when a rebuild succeeds, show the error while a build fails.
(() => {
  let seen = null;
  const banner = document.createElement("div");
  banner.className = "live-build-error";
  banner.setAttribute("role", "alert");
  banner.hidden = true;
  document.body.append(banner);

  async function poll() {
    try {
      const response = await fetch("/__live/build", { cache: "no-store" });
      const state = await response.json();
      if (seen !== null && state.generation !== seen) {
        location.reload();
        return;
      }
      seen = state.generation;
      banner.hidden = !state.error;
      banner.textContent = state.error ? `Build failed: ${state.error}` : "";
    } catch {
      // The server is restarting or gone; keep trying.
    }
    setTimeout(poll, 1000);
  }
  poll();
})();
