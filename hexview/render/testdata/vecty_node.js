// Loaded into Node (NODE_OPTIONS=--require=<this file>) before a GOOS=js test binary of a
// package that links vecty. vecty's package initialisation stops the program unless the
// global object has a document; the tests only build vecty trees (Render) and never touch the
// DOM, so an empty object is enough. Browser behaviour is tested in headless Chromium.
if (typeof globalThis.document === "undefined") {
  globalThis.document = {};
}
