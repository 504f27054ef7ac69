// @ts-check
/**
 * The linter `npm test` runs. Besides the usual TypeScript and React hooks rules it keeps the
 * house as the README's "Where things are" map draws it: each boundary below is one of its
 * rules, and `eslint.config.test.ts` checks that each one still catches what it should.
 *
 * Only rules that need no type information: the type-aware ones take longer than `tsc` itself
 * on a two-core machine, and `tsc --noEmit` already runs before this.
 */
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import unusedImports from "eslint-plugin-unused-imports";
import globals from "globals";
import tseslint from "typescript-eslint";

/** An import of `app/<folder>` by the `~/` alias or a relative path (and `app/…`, which tsconfig, having no baseUrl, does not resolve). */
const appFolder = (folders) => `^(~/|(\\.\\./)+|app/)(${folders})(/|$)`;

/**
 * Every date the portal records or reports is the RTO's: "today" and "the date of this instant"
 * come from app/utils/organisation-calendar.ts alone. An instant's UTC text cut to ten
 * characters, or a Date's year, month or day read in UTC or the server's zone, is yesterday's
 * date until 10 or 11 in the morning in Sydney (and last year's on 1 January's morning).
 */
const ORGANISATION_DATES = [
  {
    selector: "CallExpression[callee.property.name=/^(slice|substring|substr|split)$/][callee.object.callee.property.name='toISOString']",
    message: "A date cut from toISOString() is the UTC date: use organisationToday(now) or organisationDate(iso) from ~/utils/organisation-calendar.",
  },
  {
    selector: "CallExpression[callee.property.name=/^get(UTC)?(FullYear|Month|Date|Day)$/]",
    message:
      "A Date's year, month or day in UTC or the server's zone is not the organisation's: use organisationToday, organisationYear or weekdayOf from ~/utils/organisation-calendar.",
  },
];

/** Test files drive routes and models from outside; nothing imports them, so no boundary is crossed. */
const tests = ["**/*.test.ts", "**/*.test.tsx"];

/**
 * One group of files and the imports it may not make: static imports, and `import()` of the
 * same paths (a dynamic import crosses the same boundary; the import rule does not see it). A
 * type-only import is allowed where the pattern allows it; `import()` always loads the module.
 */
function boundary(name, files, patterns, ignores = []) {
  const dynamic = patterns.map((p) => ({
    selector: `ImportExpression > Literal[value=/${p.regex.replaceAll("/", "\\/")}/]`,
    message: p.message,
  }));
  // one no-restricted-syntax per file: a group in app/ keeps the organisation's dates rule too,
  // except in the one module that reads a date from an instant for everyone else
  const dates = files.every((f) => f.startsWith("app/")) && !files.includes(CALENDAR) ? ORGANISATION_DATES : [];
  return {
    name: `boundaries/${name}`,
    files,
    ignores: [...tests, ...ignores],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns }],
      "no-restricted-syntax": ["error", ...dynamic, ...dates],
    },
  };
}

/** The organisation's calendar: the one module that turns an instant into the RTO's date. */
const CALENDAR = "app/utils/organisation-calendar.ts";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "build/",
      "build-*/",
      ".build-*/",
      "public/build/",
      ".cache/",
      "data/",
      "coverage/",
      "playwright-report/",
      "test-results/",
      "tests/.tmp/",
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    languageOptions: { globals: { ...globals.node } },
    plugins: { "unused-imports": unusedImports },
    rules: {
      // An unused import fails on its own rule (with --fix to drop it); unused variables keep
      // TypeScript's rule, where a leading underscore marks one kept on purpose.
      "@typescript-eslint/no-unused-vars": "off",
      "unused-imports/no-unused-imports": "error",
      "unused-imports/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
      // One spelling in names: "enrollment", the schema's and the /api's. What a person reads (a
      // message, a label) says "enrolment", as Australians write it; so does a key that leaves the
      // process as published (the webhooks' payload), which is why properties are not checked.
      "id-match": ["error", "^(?![\\s\\S]*[Ee]nrolment|[\\s\\S]*ENROLMENT)", { properties: false, onlyDeclarations: true }],
    },
  },
  {
    files: ["app/**/*.tsx"],
    languageOptions: { globals: { ...globals.browser } },
  },
  // The React code; elsewhere (Playwright's fixtures) a function called `use` is no hook.
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  // Migrations are frozen in time and typed Kysely<any>, as Kysely advises: the Database
  // interface of today does not describe the tables a migration of last year found.
  {
    files: ["migrations/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },

  // React Router 7 has no json(): a page's loader or action returns a plain object, or data()
  // for a status or a header; an answer that stays a Response uses jsonResponse (utils/http.server).
  {
    files: ["**/*.{ts,tsx,js,mjs,cjs}"],
    rules: {
      "no-restricted-imports": [
        "error",
        ...["@remix-run/node", "@remix-run/react", "@remix-run/server-runtime"].map((name) => ({
          name,
          importNames: ["json"],
          message:
            "json() is gone in React Router 7: return a plain object or data() from a page's loader or action, or jsonResponse (~/utils/http.server) for an answer that stays a Response.",
        })),
      ],
    },
  },

  // The organisation's dates everywhere in app/ (ORGANISATION_DATES; the boundaries below repeat
  // them, since a later no-restricted-syntax replaces an earlier one for the files both match).
  {
    name: "dates/organisation-calendar",
    files: ["app/**/*.{ts,tsx}"],
    ignores: [...tests, CALENDAR],
    rules: { "no-restricted-syntax": ["error", ...ORGANISATION_DATES] },
  },

  // Models are the domain: they never see a Request, so never reach the layers that handle one;
  // and they never send mail or start work: they queue a message in the outbox (queueMail), and
  // the runner in jobs/ delivers it.
  boundary(
    "models",
    ["app/models/**"],
    [
      {
        regex: appFolder("http|routes|route-helpers|components"),
        message: "A model never imports http/, routes, route-helpers/ or components: the data flows route -> model -> db.",
      },
      {
        regex: appFolder("mail|jobs"),
        message:
          "A model never imports mail/ or jobs/: it queues its message with queueMail (models/outbox.server.ts) in its write transaction, and the runner in jobs/ sends it.",
      },
      {
        regex: appFolder("auth"),
        message:
          "A model never imports auth/: sessions, guards and sign-in read the Request and call models, not the other way round. Passwords, the password policy and rate limits are in security/.",
      },
    ],
  ),
  // security/ holds the low-level pieces both auth/ and models/ stand on (passwords, the password
  // policy, rate limits): it reaches nothing above the database, so the arrows run one way.
  boundary(
    "security",
    ["app/security/**"],
    [
      {
        regex: appFolder("auth|models|routes|route-helpers|http|api|components|mail|jobs|pdf|demo|files|avetmiss"),
        message: "security/ never imports auth/, models/ or anything above them: it is what they stand on (with db/, schemas/ and utils/ beneath it).",
      },
    ],
  ),
  // The ground floors of app/: what every layer above may use, and which uses nothing above it.
  // schemas/ (forms' and the /api's zod schemas, page wording, code lists) stands on rules/ and
  // utils/; rules/ (pure rules: the USI check, enrolment, audit actions, invoices) on utils/;
  // utils/ and files/ on env.server.ts alone.
  boundary(
    "schemas",
    ["app/schemas/**"],
    [
      {
        regex: appFolder("models|auth|security|http|routes|route-helpers|api|components|mail|jobs|avetmiss|files|pdf|demo"),
        message: "schemas/ never imports the layers above it: the routes, the /api and the models parse with it, so it stands on rules/ and utils/ alone.",
      },
    ],
  ),
  boundary(
    "rules",
    ["app/rules/**"],
    [
      {
        regex: appFolder("schemas|models|auth|security|http|routes|route-helpers|api|components|mail|jobs|avetmiss|files|pdf|demo"),
        message: "rules/ holds pure rules that schemas/ and models/ share: it imports nothing above utils/.",
      },
    ],
  ),
  ...[
    [["app/utils/**"], [CALENDAR]],
    [[CALENDAR], []],
  ].map(([files, ignores]) =>
    boundary(
      "utils",
      files,
      [
        {
          regex: appFolder("rules|schemas|models|auth|security|http|routes|route-helpers|api|components|mail|jobs|avetmiss|files|pdf|demo"),
          message:
            "utils/ is the ground floor every layer uses: it imports nothing of app/ but env.server.ts. A helper that needs a model, a schema or the request belongs in route-helpers/ or http/.",
        },
      ],
      ignores,
    ),
  ),
  boundary(
    "files",
    ["app/files/**"],
    [
      {
        regex: appFolder("rules|schemas|models|auth|security|http|routes|route-helpers|api|components|mail|jobs|avetmiss|pdf|demo"),
        message: "files/ stores and checks bytes and knows nothing of who owns them: a route helper (route-helpers/) or a model joins a file to its record.",
      },
    ],
  ),
  // db/ and the frozen migrations stand below the app: a change to app code must not change them.
  boundary(
    "db",
    ["db/**", "migrations/**"],
    [
      {
        regex: "^(~/|(\\.\\./)+app(/|$))",
        message: "db/ and migrations/ never import app/: the migrations are frozen, and the app sits on the database, not under it.",
      },
    ],
  ),
  // Components reach the browser bundle; a type from a server module is erased and so allowed.
  boundary(
    "components",
    ["app/components/**"],
    [
      {
        regex: "\\.server(/|$)",
        allowTypeImports: true,
        message: "A component never imports a .server module: it would pull server code into the browser bundle. Pass the data in through a route's loader.",
      },
      {
        regex: appFolder("routes"),
        allowTypeImports: true,
        message:
          "A component never imports a route's values: routes import components, not the other way round. A route's loader type may be imported as a type.",
      },
    ],
  ),
  // A route's server-only module is imported by its ~/routes/ path. The browser build puts an empty
  // stand-in in place of each .server module, one per import as written: "./_layout.server" in
  // admin+/ and in student+/ would be one stand-in shared by both, a chunk of its own on each page.
  boundary(
    "routes",
    ["app/routes/**"],
    [
      {
        regex: "^\\.\\.?/.*\\.server$",
        message:
          "Import a route's .server module by its ~/routes/ path (~/routes/admin+/courses.server): written as ./courses.server it is one browser stand-in with every other ./courses.server, an extra chunk on each page.",
      },
    ],
  ),
  // The /api layer is shared by the routes in routes/api+/; a route importing it and it importing a route is a circle.
  boundary(
    "api",
    ["app/api/**"],
    [
      {
        regex: appFolder("routes|route-helpers"),
        message: "app/api/ never imports a route or route-helpers/: routes import the /api layer, not the other way round.",
      },
    ],
  ),
);
