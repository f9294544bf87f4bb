// Starts main.wasm (the inspector, written in Go) with the runtime glue from wasm_exec.js,
// showing the download's progress and what the page is for while it loads.
// The page's Content-Security-Policy allows no inline script, so this lives in its own file.
"use strict";

// pgoutputInspectorCopy puts text on the clipboard, for the Share button and the Export menu
// (wasm/main.go): written in JavaScript, it costs main.wasm nothing. Without the Clipboard API
// (a page served over plain HTTP to another machine) the text is copied from a text box that
// is in the page only for the copy. The clipboard is written before the first await, while
// the click that asked for it still lets the page write it.
// size: docs/performance.md, "Size tricks".
globalThis.pgoutputInspectorCopy = async (text) => {
  if (navigator.clipboard && navigator.clipboard.writeText) {
    return navigator.clipboard.writeText(text);
  }
  const focused = document.activeElement;
  const box = document.createElement("textarea");
  box.value = text;
  document.body.append(box);
  box.select();
  const ok = document.execCommand("copy");
  box.remove();
  if (focused) focused.focus();
  if (!ok) throw new Error("this browser lets the page use no clipboard");
};

// pgoutputInspectorShowPick has the comparison's second-input number box (ui.compareSteps) show
// message msg, the one pinned, and go no further than max (0: no bound), for
// web.EffectShowPick (wasm/main.go): written in JavaScript, it costs main.wasm nothing.
// size: docs/performance.md, "Size tricks".
globalThis.pgoutputInspectorShowPick = (msg, max) => {
  const box = document.getElementById("compare-msg");
  if (box) {
    box.max = max > 0 ? max : "";
    box.value = msg;
  }
};

// pgoutputInspectorDump writes a dump of the whole input for the Export menu (wasm/main.go) in
// the export worker (export-worker.js, which runs export.wasm: the command line tool's
// writers, which main.wasm does not hold), then copies it (pgoutputInspectorCopy) or, with
// download, saves it as a file: a Blob, and a link with a download attribute that is in the
// page only for its click. The worker is started on the first dump, and kept for the next.
// The job (package dumpjob) is the dump's kind (an index of dumps), the page's text, the
// format, protocol version, in-stream choice and name it was read with, and the chosen
// message (from 1), which the Go test is of. The promise gives
// the status to show; it is rejected with the status of a failure. The dump itself goes from
// the worker to the clipboard or the file: main.wasm never holds it.
const dumps = [
  { what: "the dump as text", file: "pgoutput-dump.txt", type: "text/plain" },
  { what: "the dump as Markdown", file: "pgoutput-dump.md", type: "text/markdown" },
  { what: "the JSON", file: "pgoutput-dump.json", type: "application/json" },
  { goTest: true }, // copied only
];
// The most the page copies (8 MiB: a longer dump pastes slowly, and few places take it) and
// the most it downloads (32 MiB: the command line tool writes any size).
const maxDumpCopy = 8 << 20;
const maxDump = 32 << 20;
let exportWorker = null;
const exportJobs = new Map();
const exportProgress = new Map();
let exportJob = 0;
// exportAnswer has the export worker do a job, starting the worker on the first: its answer
// is {bytes}, {over: true} or {why}; progress, if given, gets the worker's reports on the way.
const exportAnswer = (job, progress) =>
  new Promise((resolve) => {
    if (!exportWorker) {
      exportWorker = new Worker("export-worker.js");
      exportWorker.onmessage = (e) => {
        if (e.data.read !== undefined || e.data.part !== undefined) {
          const report = exportProgress.get(e.data.id);
          if (report) report(e.data);
          return;
        }
        const done = exportJobs.get(e.data.id);
        exportJobs.delete(e.data.id);
        exportProgress.delete(e.data.id);
        if (done) done(e.data);
      };
      // The worker's script did not load or run (an error inside it answers the job): every
      // job waiting fails, and the next dump starts a new worker.
      exportWorker.onerror = (e) => {
        e.preventDefault();
        const why = "export-worker.js could not be started" + (e.message ? ` (${e.message})` : "");
        for (const done of exportJobs.values()) done({ why });
        exportJobs.clear();
        exportWorker.terminate();
        exportWorker = null;
      };
    }
    const id = ++exportJob;
    exportJobs.set(id, resolve);
    if (progress) exportProgress.set(id, progress);
    exportWorker.postMessage({ id, job });
  });
globalThis.pgoutputInspectorDump = async (kind, download, text, format, proto, inStream, name, message, senderTimeout, statusInterval) => {
  if (kind === dumps.length) {
    if (bigShows(text) && big.file.size <= maxConsumerFile) return wholeConsumerReport(senderTimeout, statusInterval);
    const shown = await consumerReport(kind, text, format, proto, inStream, senderTimeout, statusInterval);
    if (bigShows(text)) {
      const note = document.createElement("p");
      note.className = "consumer-part";
      note.textContent = `Part ${big.shown}'s consumers only: the page checks a whole file of up to ` +
        `${maxConsumerFile >> 20} MiB (the check holds about 100 bytes for each transaction); ` +
        "pgoutput-inspect consumer checks a file of any size.";
      const body = document.getElementById("consumer-body");
      if (body) body.prepend(note);
    }
    return shown;
  }
  if (kind === dumps.length + 1) return sharePart(kind, text, message);
  const dump = dumps[kind];
  const what = dump.goTest ? `message ${message} as a Go test` : dump.what;
  const max = download ? maxDump : maxDumpCopy;
  const failed = (why) => `Could not ${download ? "download" : "copy"} ${what}: ${why}`;
  const answer = await exportAnswer({ kind, text, format, proto, inStream, name, message, max });
  if (answer.over) {
    throw failed(`it is over ${max.toLocaleString("en-US")} bytes (${max >> 20} MiB), more than the page ` +
      (download ? "writes. pgoutput-inspect decode writes any size." : "copies. Download it instead."));
  }
  if (!answer.bytes) throw failed(answer.why);
  const bytes = answer.bytes;
  const size = `${bytes.length.toLocaleString("en-US")} bytes`;
  try {
    if (!download) {
      await pgoutputInspectorCopy(new TextDecoder().decode(bytes));
      return `Copied ${what} (${size})`;
    }
    const url = URL.createObjectURL(new Blob([bytes], { type: dump.type }));
    const link = document.createElement("a");
    link.href = url;
    link.download = dump.file;
    document.body.append(link);
    link.click();
    link.remove();
    // The browser reads the Blob after the click's task: let it go a minute later.
    setTimeout(() => URL.revokeObjectURL(url), 60000);
    return `Downloaded ${dump.file} (${what}, ${size})`;
  } catch (err) {
    throw failed(String(err));
  }
};

// sharePart is pgoutputInspectorDump's job of kind dumpjob.SharePart: the export worker finds
// the part of the input a link holds when the whole input's is too long (web.SharePartAnswer);
// the promise gives its answer as text, or is rejected with why there is none.
const sharePart = async (kind, payload, from) => {
  const answer = await exportAnswer({ kind, text: payload, format: "", proto: 0, inStream: 0, name: "", message: from, max: maxDump });
  if (!answer.bytes) throw answer.why;
  return new TextDecoder().decode(answer.bytes);
};

// consumerReport is pgoutputInspectorDump's job of kind dumpjob.Consumer (the kind after the
// dumps): the export worker checks the input's replication consumers (internal/consumer's
// report as HTML, which export.wasm writes and every text of which it escapes), and the report
// goes into the Consumer panel's body (#consumer-body, which main.wasm draws empty and never
// fills). The promise gives "" when the report is shown, or is rejected with why not.
const consumerReport = async (kind, text, format, proto, inStream, senderTimeout, statusInterval) => {
  const answer = await exportAnswer({ kind, text, format, proto, inStream, name: "", message: 0, max: maxDump, senderTimeout, statusInterval });
  if (answer.over) throw `The report is over ${maxDump >> 20} MiB: pgoutput-inspect consumer writes any size.`;
  if (!answer.bytes) throw `Could not check the consumers: ${answer.why}`;
  await showReport(new TextDecoder().decode(answer.bytes));
  return "";
};

// showReport puts a consumer report into the panel's body. A warm worker can answer before
// main.wasm draws the panel on its next frame: the report waits for the panel's body (about
// 10 s of frames at most: then the panel was closed). It gives the body.
const showReport = async (html) => {
  for (let frames = 0; frames < 600; frames++) {
    const body = document.getElementById("consumer-body");
    if (body) {
      body.innerHTML = html;
      return body;
    }
    await new Promise((r) => requestAnimationFrame(r));
  }
  throw "The Consumer panel was closed before its report came.";
};

// The biggest file whose consumers the page checks whole (wholeConsumerReport): the check
// holds about 100 bytes for each transaction of the file in the worker (a 1 GB capture's took
// the tab to 840 MB, over its 400 MB budget).
const maxConsumerFile = 256 << 20;

// bigShows says whether text, the page's input, is the part of the big file shown (its bytes,
// as many as the part's file holds).
const bigShows = (text) => {
  if (!big || big.cutting || big.shown === 0 || !(text instanceof Uint8Array)) return false;
  const [start, end] = big.parts[big.shown - 1];
  return text.length === big.head + end - start;
};

// wholeConsumerReport checks the consumers of the big file's whole conversation, not the part
// shown (the export worker reads its parts in order: web.PartsConsumer), once for each
// setting, showing how far it is in the panel. The report numbers the messages in the whole
// file: a message of the part shown selects it; one of another part says which part and
// message it is there.
const wholeConsumerReport = async (senderTimeout, statusInterval) => {
  const mine = big;
  const key = `${senderTimeout} ${statusInterval}`;
  if (!mine.consumer || mine.consumer.key !== key) {
    const n = mine.parts.length;
    const mc = { key, running: true, answer: null };
    mine.consumer = mc;
    const job = { file: mine.file, format: mine.format, head: mine.head, parts: mine.parts.slice(), senderTimeout, statusInterval };
    mc.answer = exportAnswer({ consumers: job }, (so) => {
      const body = document.getElementById("consumer-body");
      if (body && big === mine) body.textContent = `Checking the consumers of the whole file: ${so.part} of ${n} parts read…`;
    }).finally(() => { mc.running = false; });
  }
  const mc = mine.consumer;
  if (mc.running) {
    showReport("Checking the consumers of the whole file…").catch(() => {});
  }
  const answer = await mc.answer;
  // The check held about 100 bytes for each transaction of the file in the worker's heap,
  // which WebAssembly never gives back (a 1 GB capture's: about 500 MB): a worker with no
  // other job is ended, and the next job starts another.
  if (exportWorker && exportJobs.size === 0) {
    exportWorker.terminate();
    exportWorker = null;
  }
  if (!answer.bytes) {
    if (mine.consumer === mc) mine.consumer = null; // the next asking begins again
    throw `Could not check the consumers of the whole file: ${answer.why}`;
  }
  if (big !== mine) throw "The big file was closed before its consumers' report came.";
  const body = await showReport(new TextDecoder().decode(answer.bytes));
  localizeReport(body, answer.counts);
  return "";
};

// localizeReport has the whole file's report in body select messages of the part shown (its
// data-msg made the part's own index, which main.wasm selects) and name the part and message
// of any other (data-part, and its title), and says so. Showing that part with the message
// chosen was taken out: in one full browser suite run in two the message was not chosen
// (not understood; docs/page.md).
const localizeReport = (body, counts) => {
  const k = big.shown;
  const first = [0];
  for (const n of counts) first.push(first[first.length - 1] + n);
  for (const e of body.querySelectorAll("[data-msg]")) {
    const g = Number(e.dataset.msg);
    let p = 1;
    while (p < counts.length && first[p] <= g) p++;
    const local = g - first[p - 1];
    if (p === k) {
      e.dataset.msg = local;
      continue;
    }
    delete e.dataset.msg;
    e.dataset.part = p;
    e.setAttribute("title", `message ${(g + 1).toLocaleString("en-US")} of the file: part ${p}, its message ${local + 1}`);
  }
  const note = document.createElement("p");
  note.className = "consumer-whole";
  note.textContent = `The whole file, its ${counts.length} parts read in order: the messages are numbered ` +
    `in the file (part ${k} holds ${(first[k - 1] + 1).toLocaleString("en-US")} to ${first[k].toLocaleString("en-US")}); ` +
    "one of another part names its part and its message there (point at it).";
  body.prepend(note);
};

// A file bigger than the page reads whole (web.MaxFile: maxFile, which a test keeps alike) is
// opened in parts when it is a pcap, pcapng or pg_recvlogical file: the export worker reads it
// from disk in chunks and cuts it at its frames or messages (input.Cutter), each part a file
// of its own of at most partBytes and partItems (a capture's up to twice that, to end where
// every TCP stream is between messages), which is handed to main.wasm as if chosen
// with "Open file…" (a File of the head and the part's bytes, named "NAME (part K of N)").
// The panel (#bigfile) shows the cutting's progress, then moves between the parts. Another
// file, over maxBig, or one that cannot be cut goes to main.wasm, which refuses it as before.
// docs/page.md, "Big files".
const maxFile = 64 << 20;
const maxBig = 4 * 2 ** 30;
// The smaller a part, the sooner its rows: part 1 of a pcapng is shown in about 0.7 s with
// 4 MiB, 0.9-1.1 s with 8 (docs/performance.md).
const partBytes = 4 << 20;
const partItems = 100000;
let big = null; // {file, format, head, parts, shown, befores, …} (openBig)
let handing = false; // a part (or a refused file) on its way to main.wasm's "change" listener

// handToPage has main.wasm read file, as if chosen with "Open file…".
const handToPage = (file) => {
  const open = document.getElementById("file-open");
  if (!open) return;
  const dt = new DataTransfer();
  dt.items.add(file);
  open.files = dt.files;
  handing = true;
  try {
    open.dispatchEvent(new Event("change", { bubbles: true }));
  } finally {
    handing = false;
  }
};

const bytes = (n) => `${n.toLocaleString("en-US")} bytes`;

// bigPanel returns the panel, made on first use: a status line, a progress bar, the search and
// the whole file's tally, which scroll, above the parts' navigation, which stays at the
// panel's foot (its Close in one place whatever the text above says).
const bigPanel = () => {
  let panel = document.getElementById("bigfile");
  if (panel) return panel;
  panel = document.createElement("section");
  panel.id = "bigfile";
  panel.className = "bigfile";
  panel.setAttribute("aria-label", "Big file");
  panel.innerHTML =
    '<div class="bigfile-body"><p id="bigfile-status" role="status"></p><progress id="bigfile-progress" max="1" value="0" aria-label="Bytes read"></progress>' +
    '<form id="bigfile-find" hidden><label>Find in every part <input id="bigfile-query" type="search" spellcheck="false" autocomplete="off" ' +
    'placeholder="type:C xid:750 rel:orders" title="The message list\'s filter, run on each part in turn (conn: numbers are each part\'s own)"></label> ' +
    '<button type="submit">Find</button> <button type="button" id="bigfile-stop" hidden>Stop</button></form>' +
    '<p id="bigfile-found" role="status"></p><p id="bigfile-hits"></p>' +
    '<details id="bigfile-whole" hidden><summary></summary><p class="bigfile-names"></p><p class="bigfile-changes"></p></details></div>' +
    '<p class="bigfile-nav"><span class="bigfile-moves" hidden><button type="button" id="bigfile-prev">Previous part</button> ' +
    '<label>Part <input id="bigfile-part" type="number" min="1" value="1"> of <span id="bigfile-count"></span></label> ' +
    '<button type="button" id="bigfile-next">Next part</button></span> <button type="button" id="bigfile-close">Close</button></p>';
  document.body.append(panel);
  // The page leaves the panel the room it takes, from its top to the window's foot (page.css).
  new ResizeObserver(() => {
    const room = panel.isConnected ? Math.ceil(innerHeight - panel.getBoundingClientRect().top) : 0;
    document.documentElement.style.setProperty("--bigfile-h", `${room}px`);
  }).observe(panel);
  panel.querySelector("#bigfile-prev").addEventListener("click", () => showPart(big.shown - 1));
  panel.querySelector("#bigfile-next").addEventListener("click", () => showPart(big.shown + 1));
  panel.querySelector("#bigfile-part").addEventListener("change", (e) => showPart(Number(e.target.value)));
  panel.querySelector("#bigfile-close").addEventListener("click", closeBig);
  panel.querySelector("#bigfile-find").addEventListener("submit", (e) => {
    e.preventDefault();
    findInParts(panel.querySelector("#bigfile-query").value.trim());
  });
  panel.querySelector("#bigfile-stop").addEventListener("click", () => stopWorker(searchStopped));
  // A relation of the whole file's tally is searched for in every part.
  panel.querySelector("#bigfile-whole").addEventListener("click", (e) => {
    const rel = e.target.dataset.rel;
    if (!rel || !big || big.cutting) return;
    panel.querySelector("#bigfile-query").value = `rel:${rel}`;
    findInParts(`rel:${rel}`);
  });
  panel.querySelector("#bigfile-hits").addEventListener("click", (e) => {
    const k = Number(e.target.dataset.part);
    if (!k || !big || !big.found) return;
    // The part is shown with the list filtered to the query (the filter outlives an input).
    const box = document.getElementById("filter");
    if (box && box.value !== big.found.query) {
      box.value = big.found.query;
      box.dispatchEvent(new Event("change", { bubbles: true }));
    }
    showPart(k);
  });
  return panel;
};

// stopWorker stops the export worker, busy with a big file (cutting or searching it): its jobs
// answer why; the next job starts another.
const stopWorker = (why) => {
  if (!exportWorker) return;
  exportWorker.terminate();
  exportWorker = null;
  for (const done of exportJobs.values()) done({ why });
  exportJobs.clear();
  exportProgress.clear();
};

// The most parts the search lists (the rest are counted): the panel stays small.
const maxHits = 100;
// Why a search ends when Stop is pressed.
const searchStopped = "the search was stopped";

// findInParts searches every part of the big file with the message list's filter query, in
// the export worker, listing the parts that hold messages found as it goes.
const findInParts = async (query) => {
  if (!big || big.cutting || !query) return;
  if (big.found && big.found.running) stopWorker("another search began");
  const mine = big;
  const found = { query, parts: [], messages: 0, searched: 0, running: true, why: "" };
  mine.found = found;
  const panel = bigPanel();
  const hits = panel.querySelector("#bigfile-hits");
  hits.textContent = "";
  const began = performance.now();
  const tell = () => {
    const n = mine.parts.length;
    const where = `${found.messages.toLocaleString("en-US")} messages in ${found.parts.length} of ${n} parts`;
    let text;
    if (found.why) text = `${query}: ${found.why}` + (found.searched ? ` (after ${found.searched} parts: ${where}).` : ".");
    else if (found.running) {
      const left = ((performance.now() - began) / Math.max(found.searched, 1)) * (n - found.searched);
      text = `Finding ${query}: ${found.searched} of ${n} parts searched, ${where} so far, about ${Math.ceil(left / 1000)} s left.`;
    } else text = `${query}: ${where}.`;
    panel.querySelector("#bigfile-found").textContent = text;
    panel.querySelector("#bigfile-stop").hidden = !found.running;
  };
  tell();
  if (mine.reading) stopWorker("a search began, which reads the parts too");
  const answer = await readParts(mine, query, (so) => {
    if (mine.found !== found) return;
    found.searched = so.part;
    if (so.count > 0) {
      found.parts.push(so.part);
      found.messages += so.count;
      if (found.parts.length <= maxHits) {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.part = so.part;
        b.textContent = `Part ${so.part}: ${so.count.toLocaleString("en-US")}`;
        hits.append(b, " ");
      } else {
        found.more = found.more || hits.appendChild(document.createElement("span"));
        found.more.textContent = `and ${found.parts.length - maxHits} more parts`;
      }
    }
    tell();
  });
  if (mine.found !== found) return;
  found.running = false;
  if (answer.why) found.why = answer.why;
  tell();
  // Stop stops the reading of the parts too (a part shown alone reads them again); a search
  // that ended otherwise (its query did not read, say) leaves it to go on.
  if (answer.why !== searchStopped) readThrough();
};

// readParts has the export worker decode the big file's parts in order, each going on from
// the parts before as one decode of the whole file would, and search each with the message
// list's filter query (none for ""): each(so) is called for each part with {part, count,
// first}. As it goes, it keeps what the page's decode of each part goes on from
// (mine.befores[k]: the relations and types the parts before k defined, and the transaction
// they left open), and shows again with it a part shown before it was known. Gives the
// worker's answer.
const readParts = (mine, query, each) => {
  const parts = mine.parts.slice();
  return exportAnswer({ find: { file: mine.file, format: mine.format, head: mine.head, parts, query } }, (so) => {
    mine.befores[so.part + 1] = so.before;
    if (so.tally && so.part > mine.read) addTally(mine.whole, so.part, so.tally);
    mine.read = Math.max(mine.read, so.part);
    each(so);
    if (big !== mine) return;
    if (mine.alone && so.part + 1 === mine.shown) showPart(mine.shown);
    else describe();
  });
};

// readThrough has the worker read the parts in order (readParts) for what each goes on from
// and for the whole file's tally, unless it is being cut, or a search or another reading is
// reading them, or they are read.
const readThrough = async () => {
  const mine = big;
  if (!mine || mine.cutting || mine.reading || (mine.found && mine.found.running) || mine.read === mine.parts.length) return;
  mine.reading = true;
  await readParts(mine, "", () => {});
  mine.reading = false;
};

// closeBig closes the panel; a file still being cut, read, searched or checked stops being
// read (the worker, busy with it, is stopped: the next job starts another).
const closeBig = () => {
  if (big && (big.cutting || big.reading || (big.found && big.found.running) || (big.consumer && big.consumer.running))) {
    stopWorker("the big file was closed");
  }
  big = null;
  const panel = document.getElementById("bigfile");
  if (panel) panel.remove();
};

// describe says what the panel shows: the file, its parts so far, the part shown, and while
// the file is being cut, how far.
const describe = () => {
  const panel = bigPanel();
  const n = big.parts.length;
  const what = big.format === "pg_recvlogical" ? "messages" : "frames";
  let text = `${big.file.name}: ${bytes(big.file.size)}, ` +
    (big.cutting ? `${n} parts so far` : `${n} parts`) +
    (big.format === "pg_recvlogical"
      ? ` of at most ${partBytes >> 20} MiB or ${partItems.toLocaleString("en-US")} ${what}.`
      : ` of ${partBytes >> 20} MiB or ${partItems.toLocaleString("en-US")} ${what}, or up to twice that to end where every TCP stream is between messages.`);
  if (big.shown > 0) {
    const [start, end, items, mid] = big.parts[big.shown - 1];
    const after = big.shown > 1 && big.parts[big.shown - 2][3];
    text += ` Part ${big.shown} is bytes ${start.toLocaleString("en-US")} to ${(end - 1).toLocaleString("en-US")}, ` +
      `${items.toLocaleString("en-US")} ${what}.`;
    if (after || mid) {
      text += ` It ${after ? "begins" : ""}${after && mid ? " and " : ""}${mid ? "ends" : ""} inside a TCP stream's message ` +
        "(no place between messages was found within twice the size), which is lost there: the notes count its bytes.";
    }
  }
  const before = big.befores[big.shown];
  if (before) {
    const from = big.shown === 2 ? "part 1" : `parts 1 to ${big.shown - 1}`;
    const count = (n, what) => `${n.toLocaleString("en-US")} ${what}${n === 1 ? "" : "s"}`;
    text += ` It is decoded going on from ${from}, knowing the ${count(before.relations, "relation")} and ` +
      `${count(before.types, "type")} defined there.`;
  } else if (big.alone) {
    text += ` It is decoded alone (the relations and types of the parts before are not known) until ` +
      `the parts before it are read: ${big.read} of ${big.shown - 1} read.`;
  }
  if (big.cutting) text += ` ${big.cutting}`;
  if (big.stopped) text += ` ${big.stopped}`;
  describeWhole(panel);
  panel.querySelector("#bigfile-status").textContent = text;
  panel.querySelector("#bigfile-progress").hidden = !big.cutting;
  panel.querySelector(".bigfile-moves").hidden = big.shown === 0;
  const box = panel.querySelector("#bigfile-part");
  box.max = n;
  box.value = big.shown;
  panel.querySelector("#bigfile-count").textContent = big.cutting ? `${n} so far` : n;
  panel.querySelector("#bigfile-prev").disabled = big.shown <= 1;
  panel.querySelector("#bigfile-next").disabled = big.shown >= n;
  panel.querySelector("#bigfile-find").hidden = !!big.cutting || n === 0;
};

// addTally adds part k's tally (web.TallyPart, as the worker gives it) to the whole file's:
// the messages by type, the changes by relation (with the first and last part of each), and
// the span of LSNs and capture times.
const addTally = (whole, k, t) => {
  whole.messages += t.messages;
  for (const [name, n] of t.names) whole.names.set(name, (whole.names.get(name) || 0) + n);
  for (const [rel, n] of t.changes) {
    const c = whole.changes.get(rel) || { n: 0, first: k, last: k };
    c.n += n;
    c.last = k;
    whole.changes.set(rel, c);
  }
  whole.unnamed += t.unnamed;
  const span = (was, [lo, hi, ...rest]) => {
    if (!was) return [lo, hi, ...rest];
    const [wlo, whi, ...wrest] = was;
    return [Math.min(lo, wlo), Math.max(hi, whi), lo < wlo ? rest[0] : wrest[0], hi > whi ? rest[1] : wrest[1]];
  };
  if (t.lsn) whole.lsn = span(whole.lsn, t.lsn);
  if (t.time) whole.time = span(whole.time, t.time);
};

// The most types and relations the whole file's tally names (the rest are counted).
const maxTally = 20;

// describeWhole shows the whole file's tally of the parts read so far.
const describeWhole = (panel) => {
  const whole = big.whole;
  const box = panel.querySelector("#bigfile-whole");
  box.hidden = big.read === 0;
  if (big.read === 0) return;
  const n = big.parts.length;
  const num = (x) => x.toLocaleString("en-US");
  let head = `Whole file: ${big.read === n ? `all ${n} parts read` : `parts 1 to ${big.read} of ${n} read`}, ` +
    `${num(whole.messages)} messages`;
  if (whole.lsn) head += `, LSN ${whole.lsn[2]} to ${whole.lsn[3]}`;
  if (whole.time) {
    const at = (ms) => new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
    head += `, captured ${at(whole.time[0])} to ${at(whole.time[1])}`;
  }
  box.querySelector("summary").textContent = head + ".";
  const byCount = (m, n) => [...m].sort((a, b) => (n(b[1]) - n(a[1])) || (a[0] < b[0] ? -1 : 1));
  const names = byCount(whole.names, (x) => x);
  box.querySelector(".bigfile-names").textContent = "Messages by type: " +
    names.slice(0, maxTally).map(([name, c]) => `${name} ${num(c)}`).join(", ") +
    (names.length > maxTally ? `, and ${names.length - maxTally} types more.` : ".");
  const changes = byCount(whole.changes, (c) => c.n);
  const list = box.querySelector(".bigfile-changes");
  list.textContent = changes.length ? "Changes by relation (choose one to find it in every part): " : "No changes to a relation named by a Relation message.";
  for (const [rel, c] of changes.slice(0, maxTally)) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.rel = rel;
    b.textContent = `${rel}: ${num(c.n)} in parts ${c.first} to ${c.last}`;
    list.append(b, " ");
  }
  if (changes.length > maxTally) list.append(`and ${changes.length - maxTally} relations more.`);
  if (whole.unnamed) list.append(` ${num(whole.unnamed)} changes to relations no Relation message had named.`);
};

// showPart has main.wasm read part k (from 1) of the big file.
// A part after the first goes on from the parts before (big.befores[k]); until they are read,
// it is shown alone, and again once they are.
const showPart = (k) => {
  if (!big || !(k >= 1 && k <= big.parts.length)) return;
  big.shown = k;
  const before = big.befores[k] || null;
  big.alone = k > 1 && !before;
  describe();
  const [start, end] = big.parts[k - 1];
  const of = big.cutting ? "" : ` of ${big.parts.length}`;
  const head = big.file.slice(0, big.head);
  pgoutputInspectorOpenPart(new File([head, big.file.slice(start, end)], `${big.file.name} (part ${k}${of})`), before && before.bytes);
  if (big.alone) readThrough();
};

// openBig cuts file into parts, showing the first as soon as it is cut; a file that cannot be
// cut is handed to main.wasm, which refuses it.
const openBig = async (file) => {
  closeBig();
  const panel = bigPanel();
  const status = panel.querySelector("#bigfile-status");
  if (file.size > maxBig) {
    status.textContent = `${file.name} is ${bytes(file.size)}, more than the 4 GiB the page opens in parts. ` +
      "Cut it first: editcap -c 1000000 in.pcapng part.pcapng writes parts of a million frames; " +
      "pgoutput-inspect decode reads a file of any size.";
    return;
  }
  const bar = panel.querySelector("#bigfile-progress");
  bar.max = file.size;
  const began = performance.now();
  // befores[k]: what part k's decode goes on from, once read (readParts); read: how many parts
  // have been, and whole their tally (addTally); alone: the part shown was shown without it;
  // reading: readThrough is reading.
  const mine = { file, format: "", head: 0, parts: [], shown: 0, cutting: "Reading the file…", stopped: "",
    befores: [], read: 0, whole: { messages: 0, names: new Map(), changes: new Map(), unnamed: 0, lsn: null, time: null },
    alone: false, reading: false };
  big = mine;
  describe();
  const answer = await exportAnswer({ cut: { file, maxBytes: partBytes, maxItems: partItems } }, (so) => {
    if (big !== mine) return;
    mine.format = so.format;
    mine.head = so.head;
    mine.parts.push(...so.done);
    bar.value = so.read;
    const left = ((performance.now() - began) / so.read) * (file.size - so.read);
    mine.cutting = `Cutting: ${bytes(so.read)} of ${bytes(file.size)} read, about ${Math.ceil(left / 1000)} s left.`;
    if (mine.shown === 0 && mine.parts.length > 0) showPart(1);
    else describe();
  });
  if (big !== mine) return; // closed, or another file opened
  mine.cutting = "";
  if (answer.why && mine.parts.length === 0) {
    closeBig();
    handToPage(file);
    return;
  }
  if (answer.why) {
    mine.stopped = `The cutting stopped: ${answer.why}; the parts before are whole.`;
  } else {
    mine.parts = answer.parts;
  }
  if (mine.shown === 0) showPart(1);
  else describe();
  readThrough();
};

// A big file chosen or dropped goes to openBig before main.wasm's listeners see it; any other
// input closes the panel.
document.addEventListener("change", (e) => {
  const open = e.target;
  if (handing || open.id !== "file-open" || !open.files.length) return;
  if (open.files[0].size <= maxFile) {
    closeBig();
    return;
  }
  e.stopImmediatePropagation();
  const file = open.files[0];
  open.value = "";
  openBig(file);
}, true);
document.addEventListener("drop", (e) => {
  const files = e.dataTransfer && e.dataTransfer.files;
  if (!files || !files.length || files[0].size <= maxFile) {
    closeBig();
    return;
  }
  e.preventDefault();
  e.stopImmediatePropagation();
  openBig(files[0]);
}, true);
document.addEventListener("paste", (e) => { if (e.target.id === "input-text") closeBig(); }, true);
addEventListener("hashchange", closeBig);

// The service worker (sw.js, written by the build: internal/offline) keeps the page's files and
// serves them on later visits, so the page starts without the network and works with none
// (docs/page.md, "Loading"). serviceWorkers is navigator.serviceWorker where the page can have
// one: over http(s) (not from file://), in a browser that offers it (not Firefox's private
// windows, for one); elsewhere null, and the page loads from the network as before.
const serviceWorkers = () => {
  try {
    if (!/^https?:$/.test(location.protocol) || !("serviceWorker" in navigator)) return null;
    return navigator.serviceWorker || null;
  } catch {
    return null;
  }
};
// updatedKey marks, for the page reloaded into a new build, that it should say so.
const updatedKey = "pgoutput-inspector-updated";

// takeNewBuild runs at start: when a new build of the page was fetched whole on an earlier
// visit and waits (this page came from the old one), it asks it to take over and reloads into
// it, before main.wasm starts; true when reloading. With another page of the old build open,
// the new build keeps waiting (the worker answers {took: false}) and this page starts as it
// came.
async function takeNewBuild() {
  const sw = serviceWorkers();
  if (!sw || !sw.controller) return false;
  let waiting = null;
  try {
    const reg = await sw.getRegistration();
    waiting = reg && reg.waiting;
  } catch {
    return false;
  }
  if (!waiting) return false;
  const took = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 3000);
    const done = (ok) => { clearTimeout(timer); resolve(ok); };
    sw.addEventListener("controllerchange", () => done(true), { once: true });
    sw.addEventListener("message", (e) => { if (e.data && e.data.took === false) done(false); });
    sw.startMessages();
    waiting.postMessage({ take: true });
  });
  if (!took) return false;
  try {
    sessionStorage.setItem(updatedKey, "1");
  } catch {
    // no session storage: the page reloads without saying it was updated
  }
  location.reload();
  return true;
}

// registerWorker registers sw.js once the page has drawn its first state (on a first visit its
// downloads then do not compete with main.wasm's), and asks for a new build at once on a
// return visit (the browser would check sw.js itself, later). A new build found installs in
// the background; the page says when it is ready.
function registerWorker() {
  const sw = serviceWorkers();
  if (!sw) return;
  const returning = !!sw.controller;
  sw.register("sw.js", { updateViaCache: "none" }).then((reg) => {
    const watch = (w) => {
      if (!w || !returning) return; // the first visit's install: nothing to say
      w.addEventListener("statechange", () => {
        if (w.state === "installed") notice("A new version is ready: it opens on your next visit.");
      });
    };
    watch(reg.installing);
    reg.addEventListener("updatefound", () => watch(reg.installing));
    if (returning) reg.update().catch(() => {}); // offline: the cached build goes on
  }).catch(() => {}); // no service worker here: the page works from the network
}

// notice shows a short status line at the foot of the page (a click removes it), once the
// page has drawn its first state: main.wasm's first render replaces the body.
function notice(text) {
  whenStarted(() => {
    let line = document.getElementById("update-status");
    if (!line) {
      line = document.createElement("p");
      line.id = "update-status";
      line.className = "update-status";
      line.setAttribute("role", "status");
      line.title = "Click to close";
      line.addEventListener("click", () => line.remove());
      document.body.append(line);
    }
    line.textContent = text;
  });
}

// whenStarted runs f once main.wasm has drawn the page's first state (html[data-ready]).
function whenStarted(f) {
  const html = document.documentElement;
  if (html.hasAttribute("data-ready")) {
    f();
    return;
  }
  const watch = new MutationObserver(() => {
    if (!html.hasAttribute("data-ready")) return;
    watch.disconnect();
    f();
  });
  watch.observe(html, { attributes: true, attributeFilter: ["data-ready"] });
}

(async () => {
  const status = document.getElementById("boot-status");
  const fail = (text) => {
    if (status) {
      status.textContent = text;
      status.className = "boot-error";
    }
    console.error(text);
  };
  const say = (text) => {
    if (status && status.className !== "boot-error") status.textContent = text;
  };
  if (status && !document.getElementById("boot-about")) {
    const about = document.createElement("p");
    about.id = "boot-about";
    about.className = "boot-about";
    about.textContent = "pgoutput inspector decodes PostgreSQL logical replication messages " +
      "byte by byte, in your browser: paste what your tool printed and see every field; " +
      "nothing you paste leaves the page.";
    status.after(about);
  }
  if (typeof WebAssembly !== "object" || typeof Go !== "function") {
    fail("This browser cannot run the inspector: it needs WebAssembly.");
    return;
  }
  if (await takeNewBuild()) return;
  try {
    if (sessionStorage.getItem(updatedKey)) {
      sessionStorage.removeItem(updatedKey);
      notice("Updated to a new version.");
    }
  } catch {
    // no session storage
  }
  whenStarted(registerWorker);
  const go = new Go();
  // The inspector never returns from main; if it does, something went wrong (a Go panic
  // prints its message to the console before this).
  go.exit = (code) => {
    if (code !== 0) {
      fail(`The inspector stopped (exit code ${code}). Reload the page to start it again.`);
    }
  };
  try {
    const { instance } = await instantiate(await download(say), go.importObject);
    performance.mark("main.wasm instantiated"); // for the page's benchmarks (web/perf_test.go)
    say("Starting the decoder…");
    await go.run(instance);
  } catch (err) {
    fail(`Could not start the inspector: ${err}`);
  }
  // download fetches main.wasm (the response index.html's preload started) and returns the
  // Response, saying how many bytes have arrived: "Loading the decoder… 0.3 of 4.3 MB". The
  // total is main.wasm's size from index.html's <meta name="wasm-size"> (the inspector server
  // writes it into the page, ./build.sh dist into the file): sent with a Content-Encoding,
  // Content-Length is the compressed size while the body gives decompressed bytes. Without the
  // element, an uncompressed response's Content-Length is the total.
  async function download(say) {
    const mb = (n) => (n / 1e6).toFixed(1);
    let received = 0;
    const meta = document.querySelector('meta[name="wasm-size"]');
    let total = (meta && Number(meta.content)) || 0;
    const show = () => say(total >= received && total > 0
      ? `Loading the decoder… ${mb(received)} of ${mb(total)} MB`
      : `Loading the decoder… ${mb(received)} MB`);
    const response = await fetch("main.wasm");
    if (!response.ok) {
      throw new Error(`main.wasm: HTTP ${response.status} ${response.statusText}`);
    }
    if (!response.headers.get("Content-Encoding")) {
      total = total || Number(response.headers.get("Content-Length")) || 0;
    }
    show();
    if (!response.body) return response;
    // Counted on a copy of the body: the browser compiles main.wasm from the response itself,
    // which keeps its URL, so that Chromium stores the compiled code with it in its cache and a
    // return visit skips compiling (a Response made from a stream has no URL to store it under).
    const copy = response.clone();
    (async () => {
      const reader = copy.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received += value.byteLength;
        show();
      }
    })().catch(() => {}); // the download's own failure is reported by instantiate
    return response;
  }

  // instantiate compiles main.wasm while it downloads (instantiateStreaming) when it came as
  // application/wasm; a host that sends another type (application/octet-stream, say) makes
  // instantiateStreaming refuse it, so then the bytes are read whole first and compiled after.
  async function instantiate(response, importObject) {
    const type = (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
    if (typeof WebAssembly.instantiateStreaming === "function" && type === "application/wasm") {
      return WebAssembly.instantiateStreaming(response, importObject);
    }
    return WebAssembly.instantiate(await response.arrayBuffer(), importObject);
  }
})();
