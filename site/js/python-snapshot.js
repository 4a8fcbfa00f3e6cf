// Where the page keeps the memory snapshot of a freshly booted Python (see worker.js) between
// visits: Cache Storage, one entry per Pyodide URL and version and standard library (the snapshot holds
// the zip importer's index of the library's zip, which must be the same zip), so that the first interpreter
// of a later visit restores it instead of starting Python from scratch. Without Cache Storage
// (e.g. a page served over plain http from another host) nothing is kept and nothing fails.

// The service worker leaves this cache alone when a new build replaces its own.
export const SNAPSHOT_CACHE = "mlex-python";
const VERSION_HEADER = "X-Pyodide-Version";

export class SnapshotStore {
  /**
   * pyodideUrl: where the worker loads Pyodide from; version: the Pyodide version the site pins; stdlibUrl: the
   * site's standard library (versioned by its content), null: Pyodide's own.
   */
  constructor(pyodideUrl, version, stdlibUrl = null) {
    this.version = version;
    const key = new URL(`python-snapshot-${version}.bin`, pyodideUrl);
    if (stdlibUrl) {
      const stdlib = new URL(stdlibUrl); // the cache is the origin's own: its path names it
      key.searchParams.set("stdlib", stdlib.pathname + stdlib.search);
    }
    this.key = key.href;
  }

  /** Resolves to {bytes, version} as saved, or null when there is none or it cannot be read. */
  async load() {
    try {
      const response = await (await openCache())?.match(this.key);
      if (!response) return null;
      return { bytes: new Uint8Array(await response.arrayBuffer()), version: response.headers.get(VERSION_HEADER) };
    } catch (err) {
      console.warn("The saved Python snapshot cannot be read:", err);
      return null;
    }
  }

  /** Keeps `snapshot` ({bytes, version}) in place of any other; one made by another version is not kept. */
  async save(snapshot) {
    if (snapshot.version !== this.version) return;
    try {
      const cache = await openCache();
      if (!cache) return;
      const stale = (await cache.keys()).filter((request) => request.url !== this.key);
      await Promise.all(stale.map((request) => cache.delete(request)));
      await cache.put(this.key, new Response(snapshot.bytes, {
        headers: { "Content-Type": "application/octet-stream", [VERSION_HEADER]: snapshot.version },
      }));
    } catch (err) {
      console.warn("The Python snapshot cannot be saved:", err); // e.g. storage full: only later visits are slower
    }
  }

  async forget() {
    try {
      await (await openCache())?.delete(this.key);
    } catch (err) {
      console.warn("The saved Python snapshot cannot be deleted:", err);
    }
  }
}

function openCache() {
  return self.caches ? caches.open(SNAPSHOT_CACHE) : Promise.resolve(null);
}
