import type { Browser, Page } from "puppeteer";
import pLimit from "p-limit";
import { env } from "~/env.server";
import { logLine } from "~/utils/log.server";

/**
 * One headless Chromium shared by every render: launched on first use, launched again if it
 * disconnects or dies, closed after a quiet spell. Renders queue for one of a few slots and
 * each is cut off after a timeout, so a stuck page can hold neither memory nor a request.
 */

export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"];

export const MAX_CONCURRENT_RENDERS = 2;
export const RENDER_TIMEOUT_MS = 20_000;
/** Renders waiting beyond this many are refused at once rather than piling up. */
export const MAX_QUEUED_RENDERS = 50;
const IDLE_CLOSE_MS = 5 * 60_000;

export class RenderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RenderError";
  }
}

let browser: Browser | null = null;
let launching: Promise<Browser> | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let launches = 0;

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const watchedSignals = new Set<string>();

/**
 * Chromium talks to us over a pipe, so it exits with this process however that ends, even
 * on SIGKILL. A signal the process already handles (remix-serve closes its HTTP server on
 * SIGTERM and SIGINT, then ends once idle) also closes the browser, which would otherwise
 * keep it alive. Signals nobody handles keep their default: the process ends at once.
 * (Puppeteer's own handlers are off: they call process.exit on SIGINT and would stop
 * SIGTERM from ending a process that has no other listener.)
 */
function closeBrowserOnHandledSignals(): void {
  for (const signal of SIGNALS) {
    if (watchedSignals.has(signal) || process.listenerCount(signal) === 0) continue;
    watchedSignals.add(signal);
    process.once(signal, () => {
      watchedSignals.delete(signal);
      void closeBrowser();
    });
  }
}

async function launch(): Promise<Browser> {
  const { default: puppeteer } = await import("puppeteer");
  const started = Date.now();
  const b = await puppeteer.launch({
    executablePath: env().CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: RENDER_TIMEOUT_MS,
    pipe: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  closeBrowserOnHandledSignals();
  launches += 1;
  b.on("disconnected", () => {
    if (browser === b) browser = null;
  });
  logLine({ event: "pdf.browser.launched", ms: Date.now() - started });
  return b;
}

async function getBrowser(): Promise<Browser> {
  if (browser?.connected) return browser;
  browser = null;
  launching ??= launch()
    .then((b) => {
      browser = b;
      return b;
    })
    .finally(() => {
      launching = null;
    });
  return launching;
}

/** Closes the shared browser (tests, shutdown, idle). The next render launches a new one. */
export async function closeBrowser(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const b = browser ?? (launching ? await launching.catch(() => null) : null);
  browser = null;
  if (b) await b.close().catch(() => b.process()?.kill("SIGKILL"));
}

function killBrowser(b: Browser): void {
  if (browser === b) browser = null;
  b.process()?.kill("SIGKILL");
  void b.close().catch(() => {});
}

// At most MAX_CONCURRENT_RENDERS pages at a time, the rest wait in order (p-limit); a queue longer
// than MAX_QUEUED_RENDERS is refused at once.
const rendering = pLimit(MAX_CONCURRENT_RENDERS);

function scheduleIdleClose(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => void closeBrowser(), IDLE_CLOSE_MS);
  idleTimer.unref();
}

export interface PdfResult {
  pdf: Buffer;
  /** Requests the page tried to make other than data: URLs; all were refused. */
  blockedRequests: string[];
}

async function printPage(page: Page, html: string, blockedRequests: string[]): Promise<Buffer> {
  await page.setJavaScriptEnabled(false);
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    if (request.isInterceptResolutionHandled()) return;
    if (request.url().startsWith("data:")) void request.continue();
    else {
      blockedRequests.push(request.url());
      void request.abort("blockedbyclient");
    }
  });
  await page.setContent(html, { waitUntil: "load", timeout: RENDER_TIMEOUT_MS });
  const bytes = await page.pdf({
    printBackground: true,
    preferCSSPageSize: true,
    format: "A4",
    landscape: true,
    tagged: true,
    timeout: RENDER_TIMEOUT_MS,
  });
  return Buffer.from(bytes);
}

const PAGE_CLOSE_MS = 3_000;

/** Closes a page; a browser that cannot close a page within a few seconds is killed. */
async function closePage(page: Page, owner: Browser | null): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      page.close(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("page did not close")), PAGE_CLOSE_MS);
      }),
    ]);
  } catch {
    if (owner?.connected) killBrowser(owner);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Prints an HTML document to PDF in the shared browser. The page may load nothing but data:
 * URLs and runs no script. Throws RenderError on any failure or after `timeoutMs`.
 */
export function htmlToPdf(html: string, options: { timeoutMs?: number } = {}): Promise<PdfResult> {
  if (rendering.pendingCount >= MAX_QUEUED_RENDERS) {
    return Promise.reject(new RenderError("Too many certificates are being rendered; try again shortly"));
  }
  return rendering(async () => {
    try {
      return await renderOne(html, options.timeoutMs ?? RENDER_TIMEOUT_MS);
    } finally {
      if (rendering.activeCount <= 1 && rendering.pendingCount === 0) scheduleIdleClose();
    }
  });
}

async function renderOne(html: string, timeoutMs: number): Promise<PdfResult> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const blockedRequests: string[] = [];
  const job: { browser: Browser | null; page: Page | null; done: boolean } = { browser: null, page: null, done: false };
  let timer: NodeJS.Timeout | undefined;
  try {
    const work = (async () => {
      const b = await getBrowser();
      job.browser = b;
      const page = await b.newPage();
      if (job.done) {
        // the render timed out while the page was opening
        await closePage(page, b);
        throw new RenderError("Render abandoned");
      }
      job.page = page;
      return printPage(page, html, blockedRequests);
    })();
    work.catch(() => {}); // after a timeout nobody awaits it any more
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderError(`Rendering took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    const pdf = await Promise.race([work, timeout]);
    return { pdf, blockedRequests };
  } catch (error) {
    if (job.browser && !job.browser.connected && browser === job.browser) browser = null;
    throw error instanceof RenderError ? error : new RenderError("Could not render the PDF", { cause: error });
  } finally {
    job.done = true;
    clearTimeout(timer);
    if (job.page) await closePage(job.page, job.browser);
  }
}

/** For tests and measurements: how often a browser was launched, and whether one is up. */
export function browserStats(): { launches: number; running: boolean; active: number; waiting: number } {
  return { launches, running: Boolean(browser?.connected), active: rendering.activeCount, waiting: rendering.pendingCount };
}

/** For tests: the running browser, to simulate a crash. */
export function currentBrowserForTests(): Browser | null {
  return browser;
}
