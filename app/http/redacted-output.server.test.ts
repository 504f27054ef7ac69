import { describe, expect, it } from "vitest";
import { redactOutput } from "./redacted-output.server";

function capture() {
  const lines: string[] = [];
  const stream = {
    write(chunk: string | Uint8Array) {
      lines.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, lines };
}

describe("the process's output", () => {
  it("never prints a reset token, as text or as bytes (the access log's lines)", () => {
    const { stream, lines } = capture();
    redactOutput(stream);
    stream.write("GET /reset-password/s3cretTOKEN_abc 200 - - 3.1 ms\n");
    stream.write(Buffer.from("POST /reset-password/other-token?token=abc 302 - - 9 ms\n"));
    expect(lines.join("")).not.toMatch(/s3cretTOKEN_abc|other-token|token=abc/);
    expect(lines[0]).toBe("GET /reset-password/[redacted] 200 - - 3.1 ms\n");
  });

  it("never prints what people type into searches, nor a verification code", () => {
    const { stream, lines } = capture();
    redactOutput(stream);
    stream.write("GET /admin/students?q=Jane%20Citizen&status=active 200 - - 4 ms\n");
    stream.write("GET /api/admin/students?q=jane@example.com 200 - - 4 ms\n");
    stream.write("GET /verify/8VK3V7CNRDD8M4UU 200 - - 2 ms\n");
    stream.write("GET /api/verify/8VK3V7CNRDD8M4UU 200 - - 2 ms\n");
    stream.write("GET /verify?code=8VK3-V7CN 200 - - 2 ms\n");
    const text = lines.join("");
    expect(text).not.toMatch(/Jane|jane@|8VK3|status=active/);
    expect(lines[0]).toBe("GET /admin/students?[redacted] 200 - - 4 ms\n");
    expect(lines[2]).toBe("GET /verify/[redacted] 200 - - 2 ms\n");
  });

  it("leaves other lines as they were", () => {
    const { stream, lines } = capture();
    redactOutput(stream);
    stream.write("GET /courses 200 - - 4 ms\n");
    stream.write('{"event":"refused","reason":"Why? a question"}\n');
    expect(lines).toEqual(["GET /courses 200 - - 4 ms\n", '{"event":"refused","reason":"Why? a question"}\n']);
  });
});
