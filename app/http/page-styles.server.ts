import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import stylesheet from "~/tailwind.css";

/**
 * The text of the built stylesheet, read once from the browser build beside the server build
 * (build/client), for the document to carry inline (app/utils/page-styles.tsx). null when it is
 * not there (a test that imports this from the sources): the page then links it.
 */
let text: string | null | undefined;

export function pageStylesText(): string | null {
  if (text !== undefined) return text;
  text = null;
  try {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "client", stylesheet.replace(/^\/build\//, ""));
    // a stylesheet never holds "</style": nothing could end the element early
    if (fs.existsSync(file)) text = fs.readFileSync(file, "utf8").replace(/<\/style/gi, "<\\/style");
  } catch {
    text = null;
  }
  return text;
}
