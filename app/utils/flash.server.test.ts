import { createCookie } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { flashHeader, readFlash, redirectWithFlash } from "./flash.server";

/** The request a browser makes to `url` holding the cookies a response set. */
function following(setCookies: string[], url: string): Request {
  const path = new URL(url).pathname;
  const sent = setCookies.filter((c) => {
    // a cookie's Path must be the request's path or a parent of it (RFC 6265, 5.1.4)
    const scope = /;\s*Path=([^;]+)/i.exec(c)?.[1] ?? "/";
    return path === scope || (path.startsWith(scope) && (scope.endsWith("/") || path[scope.length] === "/"));
  });
  return new Request(url, { headers: { Cookie: sent.map((c) => c.split(";")[0]).join("; ") } });
}

describe("flash messages", () => {
  it("reach the page they name, past a redirect hop that does not consume them", async () => {
    const response = await redirectWithFlash("/dashboard", { type: "success", message: "Login successful!" }, [], { showOn: "/student/overview" });
    const setCookies = response.headers.getSetCookie();

    const hop = await readFlash(following(setCookies, "http://localhost/dashboard"));
    expect(hop).toEqual({ flash: null, clear: [] });

    const shown = await readFlash(following(setCookies, "http://localhost/student/overview"));
    expect(shown.flash).toMatchObject({ type: "success", message: "Login successful!", id: expect.any(String) });
    expect(shown.flash).not.toHaveProperty("on");
    expect(shown.clear).toEqual([expect.stringMatching(/^__flash=; Max-Age=0; Path=\/;/)]);
  });

  it("reach the page's data request too (/page.data, where the router loads it with JavaScript)", async () => {
    const setCookies = [await flashHeader({ type: "info", message: "Saved" }, "/student/profile")];
    // Remix hands the loaders the page's own URL, the .data suffix taken off
    const dataRequest = following(setCookies, "http://localhost/student/profile.data");
    const asLoaderSees = new Request("http://localhost/student/profile", { headers: dataRequest.headers });
    expect((await readFlash(asLoaderSees)).flash).toMatchObject({ message: "Saved" });
  });

  it("clear a signed cookie of another shape (one set before it named its page), and show nothing", async () => {
    const older = await createCookie("__flash", { secrets: [process.env.SESSION_SECRET!] }).serialize({ type: "success", message: "Saved" });
    const read = await readFlash(new Request("http://localhost/courses", { headers: { Cookie: older.split(";")[0]! } }));
    expect(read).toEqual({ flash: null, clear: [expect.stringMatching(/^__flash=; Max-Age=0; Path=\/;/)] });
    expect(await readFlash(new Request("http://localhost/courses", { headers: { Cookie: "__flash=unsigned" } }))).toEqual({ flash: null, clear: [] });
  });
});
