// Drives one headless Firefox tab for internal/browsertest (firefox.go) with puppeteer-core
// over WebDriver BiDi. It reads one command a line on stdin, {"id", "op", "args"}, and writes
// one answer a line on stdout, {"id", "value"} or {"id", "error"}, and events as they happen:
// {"event": "problem", "kind", "text"} and {"event": "request", "url"}.
//
// Environment: PUPPETEER_CORE (the installed package's directory), FIREFOX (the browser),
// PROFILE (an empty directory for the profile), WIDTH and HEIGHT (the viewport).
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const pkg = process.env.PUPPETEER_CORE;
const main = JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8")).main;
const { default: puppeteer } = await import(pathToFileURL(path.join(pkg, main)).href);

const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");
const problem = (kind, text) => send({ event: "problem", kind, text });

// Reported through the console, which the bridge listens to: the page's CSP allows no
// binding of our own.
const cspListener = `addEventListener("securitypolicyviolation", (e) => {
  console.error("Content Security Policy violation: directive " + e.effectiveDirective +
    " blocked " + JSON.stringify(e.blockedURI) + " (at " + e.sourceFile + ":" + e.lineNumber + ")");
}, true);`;

const browser = await puppeteer.launch({
  browser: "firefox",
  protocol: "webDriverBiDi",
  executablePath: process.env.FIREFOX,
  headless: true,
  userDataDir: process.env.PROFILE,
  args: [],
  defaultViewport: { width: +process.env.WIDTH, height: +process.env.HEIGHT },
});
const page = (await browser.pages())[0] || (await browser.newPage());
// defaultViewport applies only to pages puppeteer opens itself, not to the window Firefox
// starts with: without this the page is laid out in Firefox's own window size (1366×682).
await page.setViewport({ width: +process.env.WIDTH, height: +process.env.HEIGHT });
await page.evaluateOnNewDocument(cspListener);
page.on("console", (msg) => {
  const text = msg.text();
  if (msg.type() === "error" || msg.type() === "assert") {
    problem("console", text);
  } else if (text.startsWith("panic: ") || text.startsWith("fatal error: ")) {
    problem("console", text);
  }
});
page.on("pageerror", (err) => problem("exception", String(err && err.message || err)));
page.on("request", (req) => send({ event: "request", url: req.url() }));
page.on("requestfailed", (req) => {
  const f = req.failure();
  problem("log", "network: " + req.url() + " failed: " + (f ? f.errorText : "unknown"));
});

const ops = {
  async goto({ url }) {
    await page.goto(url, { waitUntil: "load" });
  },
  async hash({ hash }) {
    // A same-document navigation: the page sees a hashchange.
    await page.evaluate((h) => { location.hash = h; }, hash);
  },
  async eval({ expr }) {
    // The expression is a promise or a value; JSON keeps undefined out of the answer.
    const v = await page.evaluate(`(async () => (${expr}))()`);
    return v === undefined ? null : v;
  },
  async click({ selector }) {
    await page.click(selector);
  },
  async move({ x, y }) {
    await page.mouse.move(x, y);
  },
  async key({ key, modifiers }) {
    for (const m of modifiers || []) await page.keyboard.down(m);
    await page.keyboard.press(key);
    for (const m of (modifiers || []).reverse()) await page.keyboard.up(m);
  },
  async type({ text }) {
    await page.keyboard.type(text);
  },
  async viewport({ width, height }) {
    await page.setViewport({ width, height });
  },
  async close() {
    await browser.close();
  },
};

// Commands run one at a time, in order.
let queue = Promise.resolve();
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { id, op, args } = JSON.parse(line);
  queue = queue.then(async () => {
    try {
      const value = await ops[op](args || {});
      send({ id, value: value === undefined ? null : value });
    } catch (err) {
      send({ id, error: String(err && err.stack || err) });
    }
    if (op === "close") process.exit(0);
  });
});
lines.on("close", async () => {
  await queue;
  await browser.close().catch(() => {});
  process.exit(0);
});
send({ event: "ready", value: await page.evaluate(() => [innerWidth, innerHeight]) });
