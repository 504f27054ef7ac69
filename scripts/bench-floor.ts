/**
 * The framework's floor for npm run bench: a bare Remix app, generated next to the product and
 * built with the project's own node_modules, with the product's route tree (one empty module per
 * route, so matching costs the same) and a sign-in page rendering the product's /login markup as
 * JSX. It has no loader, session, security layer, page cache or database: what it costs to
 * answer is Remix's routing and React's render of that markup, the least any page here can cost.
 *
 * Generated files are .jsx so the project's typecheck (which includes **\/*.ts and *.tsx) skips them.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import productConfig from "../remix.config.js";
import { flatRouteName, routeModuleFiles, routeSource } from "../tests/support/route-files";

/** React's name for an HTML attribute where it differs from the lower-cased HTML name. */
const REACT_NAMES: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  tabindex: "tabIndex",
  autocomplete: "autoComplete",
  autofocus: "autoFocus",
  maxlength: "maxLength",
  minlength: "minLength",
  readonly: "readOnly",
  novalidate: "noValidate",
  enctype: "encType",
  inputmode: "inputMode",
  enterkeyhint: "enterKeyHint",
  spellcheck: "spellCheck",
  charset: "charSet",
  crossorigin: "crossOrigin",
  datetime: "dateTime",
  colspan: "colSpan",
  rowspan: "rowSpan",
  srcset: "srcSet",
  "accept-charset": "acceptCharset",
  "http-equiv": "httpEquiv",
  "xlink:href": "xlinkHref",
  "xmlns:xlink": "xmlnsXlink",
};
const BOOLEAN_ATTRIBUTES = new Set([
  "required",
  "disabled",
  "checked",
  "selected",
  "hidden",
  "readonly",
  "multiple",
  "autofocus",
  "novalidate",
  "open",
  "defer",
  "async",
  "inert",
]);
const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith("#x")) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith("#")) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" }[lower]!;
  });
}

function reactProp(name: string, value: string, tag: string): [string, string] {
  const lower = name.toLowerCase();
  if (lower === "style") {
    const style: Record<string, string> = {};
    for (const decl of value.split(";")) {
      const i = decl.indexOf(":");
      if (i < 0) continue;
      const key = decl.slice(0, i).trim();
      style[key.startsWith("--") ? key : key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = decl.slice(i + 1).trim();
    }
    return ["style", `{${JSON.stringify(style)}}`];
  }
  if (BOOLEAN_ATTRIBUTES.has(lower)) return [REACT_NAMES[lower] ?? lower, "{true}"];
  if ((lower === "value" || lower === "checked") && (tag === "input" || tag === "textarea" || tag === "select")) {
    return [lower === "value" ? "defaultValue" : "defaultChecked", `{${JSON.stringify(value)}}`];
  }
  const reactName =
    REACT_NAMES[lower] ?? (lower.startsWith("aria-") || lower.startsWith("data-") ? lower : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()));
  return [reactName, `{${JSON.stringify(value)}}`];
}

/**
 * JSX for a fragment of server-rendered HTML (React's own output, so well formed). Scripts and
 * module preloads are left out: the floor's root adds its own.
 */
export function htmlToJsx(html: string): string {
  const token =
    /<!--[\s\S]*?-->|<(script|style)\b[^>]*>[\s\S]*?<\/\1>|<\/([a-zA-Z][\w:-]*)\s*>|<([a-zA-Z][\w:-]*)((?:\s+[^\s"'=<>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|[^<]+/g;
  const out: string[] = [];
  for (const m of html.matchAll(token)) {
    const [text, rawTag, closing, opening, attrs, selfClosing] = m;
    if (text.startsWith("<!--") || rawTag) continue;
    if (closing) {
      out.push(`</${closing}>`);
    } else if (opening) {
      const tag = opening;
      if (tag === "link" && /rel="modulepreload"/.test(attrs ?? "")) continue;
      const props: string[] = [];
      for (const a of (attrs ?? "").matchAll(/([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
        const [name, value] = reactProp(a[1]!, decodeEntities(a[2] ?? a[3] ?? a[4] ?? ""), tag);
        props.push(`${name}=${value}`);
      }
      out.push(`<${tag}${props.length ? " " + props.join(" ") : ""}${selfClosing || VOID_ELEMENTS.has(tag) ? " />" : ">"}`);
    } else {
      out.push(`{${JSON.stringify(decodeEntities(text))}}`);
    }
  }
  return out.join("");
}

/** The product's route modules (relative to app/routes) and whether each renders a page: the floor's route tree. */
export function productRouteFiles(routesDir = path.resolve("app/routes")): Array<{ file: string; page: boolean }> {
  return routeModuleFiles(routesDir).map((file) => ({ file, page: /export default/.test(routeSource(file, routesDir)) }));
}

/** The product's future flags: the floor is the same framework, answering the same way. */
const REMIX_FUTURE = productConfig.future;

/**
 * Writes the floor app into `dir` and builds it with the project's remix. `routeFiles` are the
 * product's route modules (relative to app/routes) and whether each renders a page.
 */
export function buildFloorApp(options: { dir: string; routeFiles: Array<{ file: string; page: boolean }>; loginHtml: string; remixBin: string }) {
  const { dir, routeFiles, loginHtml, remixBin } = options;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, "app", "routes"), { recursive: true });
  const head = loginHtml.match(/<head>([\s\S]*?)<\/head>/)?.[1] ?? "";
  const body = loginHtml.match(/<body[^>]*>([\s\S]*?)<\/body>/)?.[1];
  if (!body) throw new Error("the sign-in page has no <body>");
  const title = decodeEntities(head.match(/<title>([\s\S]*?)<\/title>/)?.[1] ?? "Sign in");
  const description = decodeEntities(head.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? "");
  const stylesheets = [...head.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);

  // Remix picks its server runtime from the dependencies; the versions are the product's own.
  // isbot is the floor's alone (a development dependency of the product): Remix's default
  // entry.server, which the floor renders with, imports it, and the product's own entry does not.
  const product = JSON.parse(fs.readFileSync("package.json", "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const dependencies = Object.fromEntries(
    ["@remix-run/node", "@remix-run/react", "@remix-run/serve", "isbot", "react", "react-dom"].map((name) => [
      name,
      product.dependencies[name] ?? product.devDependencies[name],
    ]),
  );
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "bench-floor", private: true, type: "module", sideEffects: false, dependencies }, null, 2),
  );
  fs.writeFileSync(
    path.join(dir, "remix.config.js"),
    `export default ${JSON.stringify({ ignoredRouteFiles: ["**/.*"], serverModuleFormat: "esm", future: REMIX_FUTURE }, null, 2)};\n`,
  );
  fs.writeFileSync(
    path.join(dir, "app", "root.jsx"),
    `import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "@remix-run/react";

export const links = () => ${JSON.stringify(stylesheets.map((href) => ({ rel: "stylesheet", href })))};

export default function App() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
`,
  );
  for (const { file, page } of routeFiles) {
    // the floor is a bare Remix app: its routes take Remix's own flat names, the same tree
    const target = path.join(dir, "app", "routes", `${flatRouteName(file)}.jsx`);
    if (flatRouteName(file) === "_auth.login") {
      fs.writeFileSync(
        target,
        `export const meta = () => [{ title: ${JSON.stringify(title)} }, { name: "description", content: ${JSON.stringify(description)} }];

export default function Login() {
  return <>${htmlToJsx(body)}</>;
}
`,
      );
    } else if (page) {
      fs.writeFileSync(target, `import { Outlet } from "@remix-run/react";\n\nexport default function Route() {\n  return <Outlet />;\n}\n`);
    } else {
      fs.writeFileSync(target, `export function loader() {\n  return new Response(null, { status: 204 });\n}\n`);
    }
  }
  const result = spawnSync(remixBin, ["build"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "production" } });
  if (result.status !== 0) throw new Error(`the floor app did not build (${result.status})`);
  fs.writeFileSync(
    path.join(dir, "serve.mjs"),
    `// WEB_CONCURRENCY remix-serve workers on one port (node:cluster), like the product's npm start:
// the same worker script and V8 flags as the product's workers, so the two differ only in their code.
import cluster from "node:cluster";
import { workerFlags } from ${JSON.stringify(path.resolve("scripts/serve.mjs"))};
const workers = Math.max(1, Number(process.env.WEB_CONCURRENCY || 1));
cluster.setupPrimary({ exec: ${JSON.stringify(path.resolve("scripts/serve-worker.mjs"))}, args: ["build/index.js"], execArgv: workerFlags() });
for (let i = 0; i < workers; i++) cluster.fork();
// On a signal each worker closes its server and exits; the primary leaves once they are gone,
// or after five seconds, killing what is left (a floor left running would load the next bench).
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    cluster.on("exit", () => { if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0); });
    for (const w of workers) w?.process.kill(signal);
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGKILL");
      process.exit(0);
    }, 5000).unref();
  });
}
`,
  );
}
