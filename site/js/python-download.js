// How much of Python's first download has arrived, for the progress bar a first visit shows.
// The page fetches the files the grading worker loads (listed with their sizes by the build):
// a file preloaded as a fetch (<link rel=preload as=fetch crossorigin>, same mode and credentials as
// this fetch) hands this fetch the preload's own response, and the others join the download the HTTP
// cache already has in flight, so nothing is downloaded twice and every byte is counted as it arrives.

/**
 * files: [[url, bytes]], the sizes as served once decoded. onProgress(loaded, total) is called as bytes
 * arrive; resolves when every file has arrived (a file that fails counts as arrived: the worker, which
 * fetches it too, reports the failure).
 */
export async function watchPythonDownload(files, onProgress) {
  const total = files.reduce((sum, [, bytes]) => sum + bytes, 0);
  let loaded = 0;
  const add = (bytes) => {
    loaded += bytes;
    onProgress(Math.min(loaded, total), total);
  };
  await Promise.all(files.map(async ([url, bytes]) => {
    let counted = 0;
    try {
      const reader = (await fetch(url)).body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        counted += chunk.value.byteLength;
        add(chunk.value.byteLength);
      }
    } catch {
      // counted below as arrived
    }
    add(Math.max(bytes - counted, 0));
  }));
}
