import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The import boundaries of eslint.config.js catch what they should and let the rest through: each
 * case lints a snippet as if it were a file at that path (no file is written).
 */
const eslint = new ESLint({ cwd: process.cwd() });

/** The boundary messages for `source` imported by a file at `filePath`. */
async function boundaryErrors(filePath: string, source: string, typeOnly = false): Promise<string[]> {
  const code = typeOnly
    ? `import type { Thing } from "${source}";\nexport type Other = Thing;\n`
    : `import { thing } from "${source}";\nexport const other = thing;\n`;
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
}

const refused: [string, string, string, string][] = [
  ["a model", "app/models/example.server.ts", "~/http/request-context.server", "A model never imports http/"],
  ["a model", "app/models/example.server.ts", "../routes/courses", "A model never imports http/, routes"],
  ["a model", "app/models/example.server.ts", "~/components/course-card", "A model never imports http/, routes, route-helpers/ or components"],
  ["a model", "app/models/example.server.ts", "~/auth/guards.server", "A model never imports auth/"],
  ["a model", "app/models/example.server.ts", "../auth/session.server", "A model never imports auth/"],
  ["security/", "app/security/example.server.ts", "~/models/user.server", "security/ never imports auth/, models/"],
  ["security/", "app/security/example.server.ts", "../auth/session.server", "security/ never imports auth/, models/"],
  ["schemas/", "app/schemas/example.ts", "~/models/course.server", "schemas/ never imports the layers above it"],
  ["schemas/", "app/schemas/example.ts", "../avetmiss/checker", "schemas/ never imports the layers above it"],
  ["rules/", "app/rules/example.ts", "~/schemas/fields", "rules/ holds pure rules"],
  ["utils/", "app/utils/example.ts", "~/models/course.server", "utils/ is the ground floor"],
  ["utils/", "app/utils/example.server.ts", "~/http/request-context.server", "utils/ is the ground floor"],
  ["utils/", "app/utils/organisation-calendar.ts", "~/schemas/fields", "utils/ is the ground floor"],
  ["files/", "app/files/example.server.ts", "~/models/evidence.server", "files/ stores and checks bytes"],
  ["a model", "app/models/example.server.ts", "~/route-helpers/page-records.server", "A model never imports http/, routes, route-helpers/"],
  ["app/api/", "app/api/example.ts", "~/route-helpers/upload-form.server", "app/api/ never imports a route or route-helpers/"],
  ["a model", "app/models/example.server.ts", "~/mail/transport.server", "A model never imports mail/ or jobs/"],
  ["a model", "app/models/example.server.ts", "../mail/class-mails.server", "A model never imports mail/ or jobs/"],
  ["a model", "app/models/example.server.ts", "~/jobs/runner.server", "A model never imports mail/ or jobs/"],
  ["a component", "app/components/example.tsx", "~/models/course.server", "A component never imports a .server module"],
  ["a component", "app/components/admin/example.tsx", "../calendar-feed.server", "A component never imports a .server module"],
  ["a migration", "migrations/2099-01-01T0000_example.ts", "~/models/course.server", "never import app/"],
  ["a migration", "migrations/2099-01-01T0000_example.ts", "../app/schemas/fields", "never import app/"],
  ["db/", "db/example.ts", "../app/env.server", "never import app/"],
  ["db/", "db/example.ts", "~/utils/errors", "never import app/"],
  ["app/api/", "app/api/example.ts", "~/routes/api+/courses", "app/api/ never imports a route"],
  ["app/api/", "app/api/example.ts", "../routes/api+/courses", "app/api/ never imports a route"],
  ["a model", "app/models/example.server.ts", "app/routes/courses", "A model never imports http/, routes"],
  ["app/api/", "app/api/example.ts", "app/routes/api+/courses", "app/api/ never imports a route"],
  ["a component", "app/components/example.tsx", "~/routes/courses", "A component never imports a route's values"],
  ["a component", "app/components/admin/example.tsx", "../../routes/admin+/mail", "A component never imports a route's values"],
  ["a route", "app/routes/admin+/example.tsx", "./example.server", "Import a route's .server module by its ~/routes/ path"],
  ["a route", "app/routes/example.tsx", "../example.server", "Import a route's .server module by its ~/routes/ path"],
];

const allowed: [string, string, string][] = [
  ["a model", "app/models/example.server.ts", "~/schemas/course"],
  ["a model", "app/models/example.server.ts", "~/security/password.server"],
  ["a model", "app/models/example.server.ts", "#db/connection"],
  ["a model", "app/models/example.server.ts", "~/schemas/mail"],
  ["a component", "app/components/example.tsx", "~/components/ui"],
  ["a component", "app/components/example.tsx", "~/schemas/class-text"],
  ["a migration", "migrations/2099-01-01T0000_example.ts", "../db/dialect"],
  ["a migration", "migrations/2099-01-01T0000_example.ts", "#db/dialect"],
  ["db/", "db/example.ts", "../migrations/index"],
  ["app/api/", "app/api/example.ts", "~/models/course.server"],
  ["a route", "app/routes/example.tsx", "~/api/http.server"],
  ["a route", "app/routes/admin+/example.tsx", "~/routes/admin+/example.server"],
  ["a route", "app/routes/admin+/example.tsx", "./example"],
  ["a model's test", "app/models/example.server.test.ts", "~/routes/api+/courses"],
];

describe("the import boundaries", () => {
  it.each(refused)("%s at %s may not import %s", async (_who, filePath, source, expected) => {
    const errors = await boundaryErrors(filePath, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(expected);
  });

  it.each(allowed)("%s at %s may import %s", async (_who, filePath, source) => {
    expect(await boundaryErrors(filePath, source)).toEqual([]);
  });

  it.each([
    ["a model", "app/models/example.server.ts", "~/routes/api+/courses", "A model never imports http/, routes"],
    ["a model", "app/models/example.server.ts", "~/mail/transport.server", "A model never imports mail/ or jobs/"],
    ["app/api/", "app/api/example.ts", "app/routes/api+/courses", "app/api/ never imports a route"],
    ["a component", "app/components/example.tsx", "~/models/course.server", "A component never imports a .server module"],
  ])("%s at %s may not import() %s either", async (_who, filePath, source, expected) => {
    const [result] = await eslint.lintText(`export const load = () => import("${source}");\n`, { filePath });
    const messages = result!.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(expected);
  });

  it("lets a component import a route's loader type, and a model import() what it may", async () => {
    expect(await boundaryErrors("app/components/example.tsx", "~/routes/courses", true)).toEqual([]);
    const [result] = await eslint.lintText(`export const load = () => import("~/schemas/mail");\n`, { filePath: "app/models/example.server.ts" });
    expect(result!.messages).toEqual([]);
  });

  it("lets a component import a type from a .server module, which the browser bundle never sees", async () => {
    expect(await boundaryErrors("app/components/example.tsx", "~/models/course.server", true)).toEqual([]);
    expect(await boundaryErrors("app/models/example.server.ts", "~/routes/api+/courses", true)).toHaveLength(1);
  });
});

describe("dates on the organisation's calendar", () => {
  const dateErrors = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
  };

  it.each([
    "export const today = new Date().toISOString().slice(0, 10);",
    'export const today = new Date().toISOString().split("T")[0];',
    "export const day = (d: Date) => d.toISOString().substring(0, 10);",
    "export const year = new Date().getUTCFullYear();",
    "export const year = new Date().getFullYear();",
    "export const month = (d: Date) => d.getUTCMonth();",
  ])("refuses %s in app/", async (code) => {
    for (const filePath of ["app/models/example.server.ts", "app/routes/example.tsx", "app/avetmiss/example.ts"]) {
      const errors = await dateErrors(filePath, code);
      expect(errors, filePath).toHaveLength(1);
      expect(errors[0]).toContain("organisation-calendar");
    }
  });

  it("lets the organisation's calendar, tests and the instant itself through", async () => {
    expect(await dateErrors("app/utils/organisation-calendar.ts", "export const d = new Date().toISOString().slice(0, 10);")).toEqual([]);
    expect(await dateErrors("app/models/example.server.test.ts", "export const d = new Date().toISOString().slice(0, 10);")).toEqual([]);
    expect(await dateErrors("app/models/example.server.ts", "export const at = new Date().toISOString();\nexport const code = 'ABC'.slice(0, 2);")).toEqual([]);
  });
});

describe("the other rules", () => {
  it("fails an unused import", async () => {
    const [result] = await eslint.lintText(`import { redirect } from "@remix-run/node";\nexport const x = 1;\n`, {
      filePath: "app/routes/example.tsx",
    });
    expect(result!.messages.map((m) => m.ruleId)).toEqual(["unused-imports/no-unused-imports"]);
  });

  it.each(["@remix-run/node", "@remix-run/react", "@remix-run/server-runtime"])(
    "refuses json() from %s, which React Router 7 no longer has",
    async (source) => {
      for (const filePath of ["app/routes/example.tsx", "app/utils/example.server.ts", "app/models/example.server.ts", "app/routes/example.test.tsx"]) {
        const [result] = await eslint.lintText(`import { data, json } from "${source}";\nexport const x = [data, json];\n`, { filePath });
        expect(
          result!.messages.map((m) => m.ruleId),
          filePath,
        ).toEqual(["no-restricted-imports"]);
        expect(result!.messages[0]!.message).toContain("json() is gone in React Router 7");
      }
    },
  );

  it("lets data() and redirect() from @remix-run/node through", async () => {
    const [result] = await eslint.lintText(`import { data, redirect } from "@remix-run/node";\nexport const x = [data, redirect];\n`, {
      filePath: "app/routes/example.tsx",
    });
    expect(result!.messages).toEqual([]);
  });

  it("holds React hooks to their rules", async () => {
    const code = `import { useEffect, useState } from "react";
export function Example({ open }: { open: boolean }) {
  if (open) useState(0);
  const [n, setN] = useState(0);
  useEffect(() => setN(n + 1), []);
  return null;
}
`;
    const [result] = await eslint.lintText(code, { filePath: "app/components/example.tsx" });
    expect(result!.messages.map((m) => m.ruleId).sort()).toEqual(["react-hooks/exhaustive-deps", "react-hooks/rules-of-hooks"]);
  });

  it("names enrollments one way: a name spelt 'enrolment' fails, a key and the text a person reads do not", async () => {
    const code = `export const billSelfEnrolment = 1;
export const ENROLMENT_LIMIT = 2;
export const enrollmentLimit = 3;
export const payload = { enrolment: { id: "x" }, message: "Your enrolment is confirmed" };
`;
    const [result] = await eslint.lintText(code, { filePath: "app/models/example.server.ts" });
    expect(result!.messages.map((m) => `${m.ruleId} ${m.line}`)).toEqual(["id-match 1", "id-match 2"]);
  });
});
