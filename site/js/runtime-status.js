// The status line of an exercise page (#runtime-status) and, on a first visit, the progress bar of
// Python's download (#python-download): what the runner says, and how many bytes have arrived.
import { LOADING } from "./runner.js";

export class RuntimeStatus {
  constructor() {
    this.text = "";
    this.download = null; // {loaded, total}: Python's first download, while the page counts it
  }

  setText(text) {
    this.text = text;
    this.show();
  }

  setDownload(loaded, total) {
    this.download = { loaded, total };
    this.show();
  }

  /** Draws both on the current page (nothing to do on a page without them, e.g. the index). */
  show() {
    const status = document.getElementById("runtime-status");
    const progress = document.getElementById("python-download");
    if (!status || !progress) return;
    const loading = this.download !== null && this.text === LOADING;
    const arrived = loading && this.download.loaded >= this.download.total;
    status.textContent = arrived ? "Starting Python…" : this.text;
    progress.hidden = !loading || arrived;
    if (!loading) return;
    const bar = progress.querySelector("progress");
    bar.max = this.download.total;
    bar.value = this.download.loaded;
    progress.querySelector(".python-download-bytes").textContent =
      `${megabytes(this.download.loaded)} of ${megabytes(this.download.total)} MB`;
  }
}

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(1);
}
