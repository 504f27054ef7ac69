import { redactSecrets } from "~/utils/log.server";

type Writable = Pick<NodeJS.WriteStream, "write">;

/**
 * remix-serve's access log (morgan) prints each request's URL to this process's stdout, and a
 * password-reset link carries its token in the path. The server build runs inside remix-serve's
 * process, so wrapping the stream's write here makes every line it prints, morgan's included,
 * pass through the same redaction as the request log.
 */
export function redactOutput(stream: Writable): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : null;
    return write(text === null ? chunk : redactSecrets(text), ...rest);
  }) as Writable["write"];
}
