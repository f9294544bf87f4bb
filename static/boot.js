// Starts main.wasm (the inspector, written in Go) with the runtime glue from wasm_exec.js.
// The page's Content-Security-Policy allows no inline script, so this lives in its own file.
"use strict";

(async () => {
  const status = document.getElementById("boot-status");
  const fail = (text) => {
    if (status) {
      status.textContent = text;
      status.className = "boot-error";
    }
    console.error(text);
  };
  if (typeof WebAssembly !== "object" || typeof Go !== "function") {
    fail("This browser cannot run the inspector: it needs WebAssembly.");
    return;
  }
  const go = new Go();
  // The inspector never returns from main; if it does, something went wrong (a Go panic
  // prints its message to the console before this).
  go.exit = (code) => {
    if (code !== 0) {
      fail(`The inspector stopped (exit code ${code}). Reload the page to start it again.`);
    }
  };
  try {
    const { instance } = await WebAssembly.instantiateStreaming(fetch("main.wasm"), go.importObject);
    await go.run(instance);
  } catch (err) {
    fail(`Could not start the inspector: ${err}`);
  }
})();
