// The page's service worker (internal/offline writes it into the built page as sw.js, with
// this build's identity and files): it keeps every file the page fetches in a cache named after
// the build, and serves them from there, so a return visit starts without the network, and
// works with none.
//
// A new build (another sw.js: the browser compares its bytes on each visit) fetches its whole
// set into a cache of its own while the old build goes on serving; it takes over only when the
// page asks it to at start (static/boot.js), which then reloads, and it deletes the old caches
// as it does. So a page never runs on files of two builds.
"use strict";

const build = "{{BUILD}}";
const files = {{FILES}};
const prefix = "pgoutput-inspector-";
const cacheName = prefix + build;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(cacheName);
    try {
      // From the server, never an older copy the HTTP cache still holds ("no-cache" asks it
      // again: an unchanged file is a 304). addAll puts nothing in unless every file came.
      await cache.addAll(files.map((f) => new Request(f, { cache: "no-cache" })));
    } catch (err) {
      await caches.delete(cacheName); // tried again on the next visit
      throw err;
    }
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(prefix) && name !== cacheName) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// {take: true} from a page at start: this build, installed and waiting, takes over when that
// page is the only one open (another page keeps running on the build it started with until it
// is closed). The answer says which.
self.addEventListener("message", (event) => {
  if (!event.data || !event.data.take) return;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const took = open.length <= 1;
    if (took) await self.skipWaiting();
    if (event.source) event.source.postMessage({ took, build });
  })());
});

// The page's own files from the cache (a navigation to the page is its index.html); anything
// else, and a file the cache lacks, from the network.
const scope = new URL(self.registration.scope).pathname;
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(scope)) return;
  let name = url.pathname.slice(scope.length);
  if (request.mode === "navigate" && (name === "" || name === "index.html")) name = "index.html";
  if (!files.includes(name)) return;
  // caches.match, not caches.open: open would make again, empty, a cache that a new build has
  // just deleted (an old page still loading as it reloads into the new build).
  event.respondWith((async () => {
    try {
      const hit = await caches.match(name, { cacheName });
      if (hit) return hit;
    } catch {
      // the cache is gone: from the network
    }
    return fetch(request);
  })());
});
