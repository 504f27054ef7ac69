import type { Page } from "@playwright/test";
import { accessibilityViolations, openPhoneMenu, WALK_AXE_TAGS } from "./fixtures";

/**
 * What a phone fits (docs/decisions/022-phones.md): the widths every page is held to, and what
 * does not fit on the page as it stands. The page walk (tests/e2e/walk.spec.ts) measures every
 * page of every role with it, with JavaScript and without; the phone spec, the steps of a
 * journey no address opens (two-step sign-in's).
 */
export const PHONE_WIDTHS = [360, 390] as const;

/** What does not fit on the page as it stands: the document's width, controls off screen, small controls, unlabelled scroll boxes. */
export async function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const viewport = window.innerWidth;
    const doc = document.documentElement.scrollWidth;
    if (doc > viewport) problems.push(`document is ${doc} px wide`);
    const describe = (el: Element) => {
      const text = (el.getAttribute("aria-label") ?? (el as HTMLElement).innerText ?? el.getAttribute("name") ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `<${el.tagName.toLowerCase()}> "${text}"`;
    };
    /** The nearest ancestor that scrolls sideways on its own, if any. */
    const scroller = (el: Element): HTMLElement | null => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const overflow = getComputedStyle(p).overflowX;
        if ((overflow === "auto" || overflow === "scroll") && p.scrollWidth > p.clientWidth) return p;
      }
      return null;
    };
    const seenScrollers = new Set<HTMLElement>();
    const controls = document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary");
    for (const el of controls) {
      if (!(el as HTMLElement).checkVisibility({ visibilityProperty: true })) continue;
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue; // visually hidden (a skip link before it is focused)
      // a toast stacked behind the newest is drawn smaller for a moment, its close button with it;
      // the newest one's is full size and all of them open full size when touched
      if (el.closest("[data-sonner-toast]:not([data-front='true'])")) continue;
      const inside = scroller(el);
      if (inside) {
        if (!seenScrollers.has(inside)) {
          seenScrollers.add(inside);
          const outer = inside.getBoundingClientRect();
          if (outer.left < -1 || outer.right > viewport + 1) problems.push(`a scrolling box (${describe(inside)}) reaches ${Math.round(outer.right)} px`);
          if (inside.tabIndex < 0 || !(inside.getAttribute("aria-label") || inside.getAttribute("aria-labelledby")))
            problems.push(`a scrolling box (${describe(inside)}) is not a focusable, labelled region`);
        }
      } else if (box.left < -1 || box.right > viewport + 1) {
        problems.push(`${describe(el)} spans ${Math.round(box.left)}-${Math.round(box.right)} px`);
      }
      const type = el.getAttribute("type");
      const small = el.matches("button, input, select, textarea, summary, a.btn") && type !== "checkbox" && type !== "radio";
      if (small && (box.height < 43.5 || box.width < 43.5)) problems.push(`${describe(el)} is ${Math.round(box.width)}x${Math.round(box.height)} px`);
    }
    return problems;
  });
}

/** What does not fit one page at one width (width 0: what axe found with the Menu open). */
export interface Misfit {
  url: string;
  width: number;
  problems: string[];
}

/**
 * What does not fit on the page shown, at each width, and, when `axe` is set, what axe finds on it
 * at the last width with the phone's Menu open (with JavaScript: axe runs in the page). The
 * viewport is left at the last width.
 */
export async function phoneCheck(page: Page, js: boolean, axe: boolean): Promise<Misfit[]> {
  const url = new URL(page.url()).pathname;
  const found: Misfit[] = [];
  for (const width of PHONE_WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    // a phone never changes width: what a resize sets moving (a toast sliding to its phone
    // place) is measured where it comes to rest (without JavaScript no toast moves, and the
    // page's clock for frames does not run)
    if (js)
      await page.evaluate(async () => {
        // two frames: a transition the resize starts is running by then
        for (let frame = 0; frame < 2; frame++) await new Promise((done) => requestAnimationFrame(done));
        const moving = document.getAnimations().filter((animation) => animation.effect?.getTiming().iterations !== Infinity);
        await Promise.all(moving.map((animation) => animation.finished.catch(() => undefined)));
      });
    const problems = await misfits(page);
    if (problems.length) found.push({ url, width, problems });
  }
  if (js && axe) {
    await openPhoneMenu(page);
    const violations = await accessibilityViolations(page, WALK_AXE_TAGS);
    if (violations.length) found.push({ url, width: 0, problems: violations.map((v) => `axe: ${v}`) });
    // the Menu closed again, as a tap outside it leaves it: the journey goes on under it
    await page.evaluate(() => document.querySelector("header details[open]")?.removeAttribute("open"));
  }
  return found;
}
