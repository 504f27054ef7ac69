import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The certificate's typefaces, taken from the project's own @fontsource packages and inlined
 * as data: URLs, so rendering fetches nothing. The Latin and Latin Extended subsets cover
 * English and European names (each face keeps its unicode-range, so Chromium loads only
 * what the text needs); other scripts fall back to the system's DejaVu fonts. The woff
 * fallbacks are dropped because Chromium reads woff2.
 */

const FACES = [
  { pkg: "@fontsource/libre-baskerville", css: ["400.css", "400-italic.css", "700.css"] },
  { pkg: "@fontsource/inter", css: ["400.css", "500.css", "600.css", "700.css"] },
] as const;

const require = createRequire(import.meta.url);

const SUBSETS = /-(latin|latin-ext)-\d+-(normal|italic) \*\//;

/** The @font-face blocks of a fontsource stylesheet whose subset is one we embed. */
export function pickSubsets(css: string): string {
  return css
    .split(/(?=\/\* )/)
    .filter((block) => SUBSETS.test(block.slice(0, block.indexOf("*/") + 2)))
    .join("");
}

/** Rewrites one fontsource stylesheet so each `src` is a single base64 woff2 data: URL. */
export function inlineFontCss(css: string, readFile: (relative: string) => Buffer): string {
  return css.replace(/src:\s*([^;]+);/g, (_whole, sources: string) => {
    const woff2 = /url\(\s*['"]?([^'")]+\.woff2)['"]?\s*\)/.exec(sources);
    if (!woff2) throw new Error(`No woff2 source in @font-face: ${sources}`);
    const data = readFile(woff2[1]!).toString("base64");
    return `src: url(data:font/woff2;base64,${data}) format('woff2');`;
  });
}

let cached: string | undefined;

/** The @font-face rules for the certificate, read from node_modules once per process. */
export function certificateFontCss(): string {
  if (cached) return cached;
  const parts: string[] = [];
  for (const face of FACES) {
    for (const file of face.css) {
      const stylesheet = require.resolve(`${face.pkg}/${file}`);
      const dir = path.dirname(stylesheet);
      const css = fs.readFileSync(stylesheet, "utf8");
      parts.push(inlineFontCss(pickSubsets(css), (relative) => fs.readFileSync(path.resolve(dir, relative))));
    }
  }
  cached = parts.join("\n");
  return cached;
}
