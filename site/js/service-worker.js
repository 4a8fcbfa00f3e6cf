// Service worker: the site opens and grades offline after one visit, and opens
// from local copies on later visits. The build writes it at the site root as
// sw.js, after `const BUILD = {version, pages, files, isolate}` (sitebuild/offline.py).
//
// - install: precache every URL of BUILD into the cache of this build's version,
//   copying unchanged files (same content hash) from older caches instead of
//   downloading them again; a failed download fails the install, which the
//   browser retries on a later visit.
// - activate: take over at once and delete the caches of other builds.
// - fetch: BUILD.pages (pages, grading data) from the network, falling back to
//   the cache offline; BUILD.files (hash-versioned assets, Pyodide) cache first.
// - BUILD.isolate: add COOP/COEP to what it serves, so pages are cross-origin
//   isolated (needed for SharedArrayBuffer) even on hosts that cannot send headers.
// - BUILD.worker: the grading worker's script goes out with its Content-Security-Policy
//   (sitebuild/offline.py), so the worker loads nothing after its boot even on hosts
//   that cannot send headers; and a worker's request for anything but this build's
//   files gets a network error, never reaching the network.

const CACHE_PREFIX = "mlex-";
const CACHE_NAME = CACHE_PREFIX + BUILD.version;
// Not a build's cache: the page keeps its Python snapshot there (python-snapshot.js), valid across builds.
const SNAPSHOT_CACHE = "mlex-python";
const HASH_HEADER = "X-Mlex-Hash";
const scope = self.registration.scope;
const hashes = new Map();
const networkFirst = new Set();
for (const [path, hash] of Object.entries(BUILD.pages)) {
  hashes.set(new URL(path, scope).href, hash);
  networkFirst.add(new URL(path, scope).href);
}
for (const [path, hash] of Object.entries(BUILD.files)) hashes.set(new URL(path, scope).href, hash);
const workerScript = new URL(BUILD.worker.script, scope).href;
const workerPolicy = BUILD.worker.policy.replaceAll("{site}", scope);
// Where a worker may fetch from besides the build's files: Pyodide's folder when it comes from elsewhere.
const workerSources = workerPolicy.match(/connect-src ([^;]*)/)[1].split(" ").filter((url) => url.endsWith("/"));

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter(isOtherBuild).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = request.url;
  if (hashes.has(url) && !networkFirst.has(url)) {
    const cached = fromCache(request);
    event.respondWith(withoutQuery(url) === workerScript ? cached.then(withWorkerPolicy) : cached);
  } else if (workerSources.some((source) => url.startsWith(source))) {
    // Pyodide from elsewhere: as the network has it.
  } else if (networkFirst.has(url)) {
    event.respondWith(unlessFromWorker(event, () => fromNetwork(request)));
  } else if (networkFirst.has(withoutQuery(url))) {
    // A page with a query (the index's filters, index.html?tag=...): offline, the page without it.
    event.respondWith(unlessFromWorker(event, () => fromNetwork(request, withoutQuery(url))));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).then(isolated));
  } else {
    event.respondWith(unlessFromWorker(event, () => fetch(request)));
  }
});

// answer(), or a network error when a worker asks: workers need only the build's files and Pyodide's (the
// learner's code runs in the grading worker).
async function unlessFromWorker(event, answer) {
  const client = event.clientId ? await self.clients.get(event.clientId) : null;
  return client?.type === "worker" ? Response.error() : answer();
}

function withWorkerPolicy(response) {
  const headers = new Headers(response.headers);
  headers.set("Content-Security-Policy", workerPolicy);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function precache() {
  const cache = await caches.open(CACHE_NAME);
  const older = await olderCaches();
  try {
    await Promise.all([...hashes].map(async ([url, hash]) => {
      for (const old of older) {
        const kept = await old.match(url);
        if (kept?.headers.get(HASH_HEADER) === hash) return cache.put(url, kept);
      }
      // Pages revalidate; the rest usually comes from the HTTP cache the first visit filled.
      const response = await fetch(url, { cache: networkFirst.has(url) ? "no-cache" : "default" });
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return cache.put(url, await stamped(response, hash));
    }));
  } catch (err) {
    await caches.delete(CACHE_NAME); // nothing half-filled is left behind
    throw err;
  }
}

async function olderCaches() {
  const names = (await caches.keys()).filter(isOtherBuild);
  return Promise.all(names.map((name) => caches.open(name)));
}

function isOtherBuild(cacheName) {
  return cacheName.startsWith(CACHE_PREFIX) && cacheName !== CACHE_NAME && cacheName !== SNAPSHOT_CACHE;
}

async function fromNetwork(request, cachedUrl = request.url) {
  try {
    return isolated(await fetch(request));
  } catch (err) {
    const cached = await caches.match(cachedUrl, { cacheName: CACHE_NAME, ignoreVary: true });
    if (cached) return cached;
    throw err;
  }
}

function withoutQuery(url) {
  const plain = new URL(url);
  plain.search = "";
  return plain.href;
}

async function fromCache(request) {
  const cached = await caches.match(request.url, { cacheName: CACHE_NAME, ignoreVary: true });
  return cached ?? isolated(await fetch(request));
}

// The response with this build's content hash, and the isolation headers.
async function stamped(response, hash) {
  const headers = withIsolation(response.headers);
  headers.set(HASH_HEADER, hash);
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

function isolated(response) {
  // Redirects and opaque responses must reach the page as they are.
  if (!BUILD.isolate || response.type !== "basic" || response.redirected) return response;
  return new Response(response.body, {
    status: response.status, statusText: response.statusText, headers: withIsolation(response.headers),
  });
}

// The body a service worker hands on is already decoded: drop the encoding of the transfer.
function withIsolation(original) {
  const headers = new Headers(original);
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  if (BUILD.isolate) {
    headers.set("Cross-Origin-Opener-Policy", "same-origin");
    headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  }
  return headers;
}
