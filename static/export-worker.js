// The page's export worker: runs export.wasm (wasm/export: the command line tool's writers,
// which main.wasm does not hold) and answers the page's jobs (static/boot.js's
// pgoutputInspectorDump): {id, job} in, {id, bytes} (transferred), {id, over: true} or
// {id, why} out. The page starts it on the first dump it exports; export.wasm is fetched then,
// once, and the worker is kept for later dumps.
"use strict";

importScripts("wasm_exec.js");

// ready is export.wasm started, or why it could not be; after a failure the next job tries
// again.
let ready = null;

function start() {
  return (async () => {
    const response = await fetch("export.wasm");
    if (!response.ok) {
      throw `export.wasm: HTTP ${response.status} ${response.statusText}`.trim();
    }
    const go = new Go();
    const type = (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
    const { instance } = typeof WebAssembly.instantiateStreaming === "function" && type === "application/wasm"
      ? await WebAssembly.instantiateStreaming(response, go.importObject)
      : await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject);
    // Runs main until it waits, having set pgoutputInspectorExport; it never returns.
    go.run(instance);
    if (typeof pgoutputInspectorExport !== "function") {
      throw "export.wasm did not start";
    }
  })().catch((err) => {
    ready = null;
    throw typeof err === "string" ? err : `export.wasm: ${err}`;
  });
}

onmessage = async (e) => {
  const { id, job } = e.data;
  try {
    ready = ready || start();
    await ready;
    const answer = pgoutputInspectorExport(job);
    answer.id = id;
    postMessage(answer, answer.bytes ? [answer.bytes.buffer] : []);
  } catch (err) {
    postMessage({ id, why: typeof err === "string" ? err : String(err) });
  }
};
