// Drives headless Firefox for internal/browsertest (firefox.go) with puppeteer-core over
// WebDriver BiDi: one Firefox for a whole test process, a tab in a browser context of its own
// for each test. It reads one command a line on stdin, {"id", "op", "tab", "args"} ("open"
// answers [tab, innerWidth, innerHeight] of a new tab; "close" closes one), and writes one
// answer a line on stdout, {"id", "value"} or {"id", "error"}, and a tab's events as they
// happen: {"event": "problem", "tab", "kind", "text"} and {"event": "request", "tab", "url"}.
//
// Once Firefox runs it writes {"event": "ready", "browser", "driver"} (the browser's version
// as it gives it, puppeteer-core's); when Firefox cannot be launched, {"event": "failed",
// "driver", "error"} and exits.
//
// Environment: PUPPETEER_CORE (the installed package's directory), FIREFOX (the browser),
// PROFILE (an empty directory for the profile), WIDTH and HEIGHT (the viewport).
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const pkg = process.env.PUPPETEER_CORE;
const { main, version: driver } = JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8"));
const { default: puppeteer } = await import(pathToFileURL(path.join(pkg, main)).href);

const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

// Reported through the console, which the bridge listens to: the page's CSP allows no
// binding of our own.
const cspListener = `addEventListener("securitypolicyviolation", (e) => {
  console.error("Content Security Policy violation: directive " + e.effectiveDirective +
    " blocked " + JSON.stringify(e.blockedURI) + " (at " + e.sourceFile + ":" + e.lineNumber + ")");
}, true);`;

const width = +process.env.WIDTH, height = +process.env.HEIGHT;
let browser;
try {
  browser = await puppeteer.launch({
    browser: "firefox",
    protocol: "webDriverBiDi",
    executablePath: process.env.FIREFOX,
    headless: true,
    userDataDir: process.env.PROFILE,
    args: [],
    defaultViewport: { width, height },
  });
} catch (err) {
  send({ event: "failed", driver, error: String(err && err.message || err) });
  process.exit(1);
}

// The tabs open, by the number "open" gave them: each in a browser context of its own (no
// cookies, storage or cache shared with another tab), so that one Firefox serves many tests.
const tabs = new Map();
let lastTab = 0;

const ops = {
  async open() {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    // newPage lays the page out in defaultViewport; set again in case it did not.
    await page.setViewport({ width, height });
    await page.evaluateOnNewDocument(cspListener);
    const id = ++lastTab;
    const problem = (kind, text) => send({ event: "problem", tab: id, kind, text });
    page.on("console", (msg) => {
      const text = msg.text();
      if (msg.type() === "error" || msg.type() === "assert") {
        problem("console", text);
      } else if (text.startsWith("panic: ") || text.startsWith("fatal error: ")) {
        problem("console", text);
      }
    });
    page.on("pageerror", (err) => problem("exception", String(err && err.message || err)));
    page.on("request", (req) => send({ event: "request", tab: id, url: req.url() }));
    page.on("requestfailed", (req) => {
      const f = req.failure();
      problem("log", "network: " + req.url() + " failed: " + (f ? f.errorText : "unknown"));
    });
    tabs.set(id, { context, page });
    return [id, ...(await page.evaluate(() => [innerWidth, innerHeight]))];
  },
  async close(_, tab) {
    tabs.delete(tab.id);
    await tab.context.close();
  },
  async goto({ url }, { page }) {
    await page.goto(url, { waitUntil: "load" });
  },
  async hash({ hash }, { page }) {
    // A same-document navigation: the page sees a hashchange.
    await page.evaluate((h) => { location.hash = h; }, hash);
  },
  async eval({ expr }, { page }) {
    // The expression is a promise or a value; JSON keeps undefined out of the answer.
    const v = await page.evaluate(`(async () => (${expr}))()`);
    return v === undefined ? null : v;
  },
  async click({ selector }, { page }) {
    await page.click(selector);
  },
  async upload({ selector, paths }, { page }) {
    const input = await page.$(selector);
    if (!input) throw new Error(`no element matches ${selector}`);
    await input.uploadFile(...paths);
  },
  async move({ x, y }, { page }) {
    await page.mouse.move(x, y);
  },
  async key({ key, modifiers }, { page }) {
    for (const m of modifiers || []) await page.keyboard.down(m);
    await page.keyboard.press(key);
    for (const m of (modifiers || []).reverse()) await page.keyboard.up(m);
  },
  async type({ text }, { page }) {
    await page.keyboard.type(text);
  },
  async viewport({ width, height }, { page }) {
    await page.setViewport({ width, height });
  },
};

// Commands run one at a time, in order.
let queue = Promise.resolve();
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { id, op, tab, args } = JSON.parse(line);
  queue = queue.then(async () => {
    try {
      let t;
      if (op !== "open") {
        t = tabs.get(tab);
        if (!t) throw new Error("no tab " + tab);
        t.id = tab;
      }
      const value = await ops[op](args || {}, t);
      send({ id, value: value === undefined ? null : value });
    } catch (err) {
      // The message alone first: it is what a test's failure shows; the stack follows.
      const message = String(err && err.message || err);
      send({ id, error: [message, err && err.stack].filter(Boolean).join("\n") });
    }
  });
});
lines.on("close", async () => {
  await queue;
  await browser.close().catch(() => {});
  process.exit(0);
});
send({ event: "ready", browser: await browser.version(), driver });
