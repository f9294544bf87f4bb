// The page's export worker: runs export.wasm (wasm/export: the command line tool's writers,
// which main.wasm does not hold) and answers the page's jobs (static/boot.js's
// pgoutputInspectorDump, and pgoutputInspectorBigFile's cutting): {id, job} in, {id, bytes}
// (transferred), {id, over: true} or {id, why} out, and {id, read, parts} while a file is cut.
// The page starts it on its first job; export.wasm is fetched then, once, and the worker is
// kept for later jobs.
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

// cut reads a file too big for the page from disk in chunks (Blob.slice, FileReaderSync: the
// file is never held whole) and cuts it into parts (input.Cutter through export.wasm's
// pgoutputInspectorCut), posting {id, read, parts, done, format, head} after each chunk (done:
// the parts completed since the last); its answer is {format, head, parts}, or {why} with the
// parts done before the cutting stopped posted last.
const cutChunk = 4 << 20;
const cut = (id, { file, maxBytes, maxItems }) => {
  const reader = new FileReaderSync();
  pgoutputInspectorCut(maxBytes, maxItems);
  for (let at = 0; at < file.size; at += cutChunk) {
    const chunk = new Uint8Array(reader.readAsArrayBuffer(file.slice(at, at + cutChunk)));
    const so = pgoutputInspectorCut(chunk);
    postMessage({ id, read: at + chunk.length, parts: so.parts, done: so.done, format: so.format, head: so.head });
    if (so.why) {
      pgoutputInspectorCut();
      return { why: so.why };
    }
  }
  return pgoutputInspectorCut();
};

onmessage = async (e) => {
  const { id, job } = e.data;
  try {
    ready = ready || start();
    await ready;
    const answer = job.cut ? cut(id, job.cut) : pgoutputInspectorExport(job);
    answer.id = id;
    postMessage(answer, answer.bytes ? [answer.bytes.buffer] : []);
  } catch (err) {
    postMessage({ id, why: typeof err === "string" ? err : String(err) });
  }
};
