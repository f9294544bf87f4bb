// The page's export worker: runs export.wasm (wasm/export: the command line tool's writers,
// which main.wasm does not hold) and answers the page's jobs (static/boot.js's
// pgoutputInspectorDump, and a big file's cutting, search and consumer check): {id, job} in,
// {id, bytes} (transferred), {id, over: true} or {id, why} out, and progress while a file is
// cut, searched or checked.
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

// cut reads a file too big for the page from disk in chunks (the file is never held whole)
// and cuts it into parts (input.Cutter through export.wasm's pgoutputInspectorCut), posting
// {id, read, parts, done, format, head} after each chunk (done: the parts completed since the
// last); its answer is {format, head, parts}, or {why} with the parts done before the cutting
// stopped posted last. The page runs one cut at a time (a new one ends the old worker).
const cut = async (id, { file, maxBytes, maxItems }) => {
  pgoutputInspectorCut(maxBytes, maxItems);
  let read = 0;
  let why = "";
  await readChunks(file, (chunk) => {
    const so = pgoutputInspectorCut(chunk);
    read += chunk.length;
    postMessage({ id, read, parts: so.parts, done: so.done, format: so.format, head: so.head });
    why = so.why || "";
    return !why;
  });
  if (why) {
    pgoutputInspectorCut();
    return { why };
  }
  return pgoutputInspectorCut();
};

// readChunks gives each the file's bytes in order, in chunks of at most cutChunk bytes, until
// each returns false. It reads them through a BYOB reader of the file's stream, into the same
// memory each time (FileReaderSync gave each chunk a new ArrayBuffer that only a collection
// frees: a 1.85 GB pcapng held the renderer at 2.1 GB).
const cutChunk = 4 << 20;
const readChunks = async (file, each) => {
  let reader;
  try {
    reader = file.stream().getReader({ mode: "byob" });
  } catch (err) {
    throw `this browser cannot read a file from disk a chunk at a time (${err})`;
  }
  let buffer = new ArrayBuffer(cutChunk);
  for (let done = false; !done;) {
    let n = 0;
    while (n < cutChunk) {
      // Each read takes the buffer and gives it back, filled from n on.
      const r = await reader.read(new Uint8Array(buffer, n));
      if (r.value) buffer = r.value.buffer;
      if (r.done) {
        done = true;
        break;
      }
      n += r.value.byteLength;
    }
    if (n > 0 && !each(new Uint8Array(buffer, 0, n))) {
      reader.cancel();
      return;
    }
  }
};

// find decodes each part of a big file in order (parts as cut answers them: [start, end, …]
// after the head) and searches it with the message list's filter query, none for ""
// (pgoutputInspectorFind, which decodes the part going on from the part before), posting
// {id, part, count, first, before, tally} for each (before: what the page's decode of the
// next part goes on from, {bytes, relations, types}; tally: the part's web.TallyPart); its
// answer is {searched}, or {why} when the query does not read.
const find = async (id, { file, format, head, parts, query }) =>
  (await eachPart(file, head, parts, (bytes, k) => {
    const so = pgoutputInspectorFind(bytes, query, format, k === 0);
    if (so.why) return { why: so.why };
    postMessage({ id, part: k + 1, count: so.count, first: so.first, before: { bytes: so.before, relations: so.relations, types: so.types }, tally: so.tally });
  })) || { searched: parts.length };

// consumers checks the replication consumers of a big file's whole conversation, its parts
// read in order (pgoutputInspectorConsumerPart: web.PartsConsumer), posting {id, part} after
// each; its answer is {bytes, counts}: the report as HTML, which numbers the messages in the
// whole file, and each part's messages.
const consumers = async (id, { file, format, head, parts, senderTimeout, statusInterval }) => {
  await eachPart(file, head, parts, (bytes, k) => {
    pgoutputInspectorConsumerPart(bytes, format, parts[k][2], k === 0, senderTimeout, statusInterval);
    postMessage({ id, part: k + 1 });
  });
  return pgoutputInspectorConsumerPart();
};

// eachPart gives each of a big file's parts (a file of its own: the head, then the part) to
// each(bytes, k), in order, until it returns an answer, which it gives. Every part is read
// into the same memory, after the head (an ArrayBuffer a part, freed only when the worker's
// heap is collected, held the tab at 750 MB searching a 1 GB file).
const eachPart = async (file, head, parts, each) => {
  let most = 0;
  for (const [start, end] of parts) most = Math.max(most, end - start);
  let buffer = await readInto(file.slice(0, head), new ArrayBuffer(head + most), 0);
  for (let k = 0; k < parts.length; k++) {
    const [start, end] = parts[k];
    buffer = await readInto(file.slice(start, end), buffer, head);
    const answer = each(new Uint8Array(buffer, 0, head + end - start), k);
    if (answer) return answer;
  }
  return null;
};

// readInto reads blob whole into buffer from byte at on, through a BYOB reader of its stream,
// and gives the buffer back (each read takes it and gives it back, its bytes kept).
const readInto = async (blob, buffer, at) => {
  let reader;
  try {
    reader = blob.stream().getReader({ mode: "byob" });
  } catch (err) {
    throw `this browser cannot read a file from disk a chunk at a time (${err})`;
  }
  for (let n = at; n < at + blob.size;) {
    const r = await reader.read(new Uint8Array(buffer, n, at + blob.size - n));
    if (r.done) throw "the file ended before its part did: was it changed?";
    buffer = r.value.buffer;
    n += r.value.byteLength;
  }
  reader.releaseLock();
  return buffer;
};

// inTurn runs the jobs that read a big file's parts one after another: a search or reading
// and a consumer check run at once left one of them stalled for good in Chromium.
let turn = Promise.resolve();
const inTurn = (job) => {
  const done = turn.then(job, job);
  turn = done.catch(() => {});
  return done;
};

onmessage = async (e) => {
  const { id, job } = e.data;
  try {
    ready = ready || start();
    await ready;
    const answer = job.cut ? await cut(id, job.cut) : job.find ? await inTurn(() => find(id, job.find))
      : job.consumers ? await inTurn(() => consumers(id, job.consumers)) : pgoutputInspectorExport(job);
    answer.id = id;
    postMessage(answer, answer.bytes ? [answer.bytes.buffer] : []);
  } catch (err) {
    postMessage({ id, why: typeof err === "string" ? err : String(err) });
  }
};
