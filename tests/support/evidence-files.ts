import { execFileSync } from "node:child_process";
import fs from "node:fs";
import sharp from "sharp";

/** EXIF with a place in it (Sydney), as a phone camera writes it. */
export const GPS_EXIF = {
  IFD0: { Make: "TestCam", Model: "Yard 1" },
  IFD3: { GPSLatitudeRef: "S", GPSLatitude: "33/1 51/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "151/1 12/1 0/1" },
};

/** A small JPEG photo with GPS tags. `shade` makes different photos differ. */
export async function gpsPhoto(shade = 120, size = 96): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: { r: shade, g: 80, b: 40 } } })
    .jpeg()
    .withExif(GPS_EXIF)
    .toBuffer();
}

export async function pngImage(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: "green" } }).png().toBuffer();
}

/**
 * A JPEG of noise of at least `bytes` bytes with GPS tags, written to `file` by a child process
 * so the memory libvips takes to make it is not counted against the upload being measured.
 */
export function writeLargePhoto(file: string, bytes: number, below = bytes + 1024 * 1024): void {
  // noise compresses to a near-constant number of bytes a pixel: size the side from a first try
  const script = `
    const sharp = require("sharp");
    const fs = require("fs");
    const make = (side) => sharp({ create: { width: side, height: side, channels: 3, noise: { type: "gaussian", mean: 128, sigma: 90 } } })
      .jpeg({ quality: 100, chromaSubsampling: "4:4:4" })
      .withExif(${JSON.stringify(GPS_EXIF)})
      .toFile(${JSON.stringify(file)});
    (async () => {
      let side = 1000;
      for (let i = 0; i < 4; i++) {
        await make(side);
        const size = fs.statSync(${JSON.stringify(file)}).size;
        if (size >= ${bytes} && size < ${below}) return;
        side = Math.round(side * Math.sqrt(${(bytes + below) / 2} / size));
      }
      process.exit(1);
    })().catch((e) => { console.error(e); process.exit(1); });`;
  execFileSync(process.execPath, ["-e", script], { stdio: "inherit" });
}

/**
 * A multipart/form-data request whose body streams from files on disk (never whole in memory),
 * with any text fields first.
 */
export function multipartRequest(url: string, fields: Record<string, string>, files: { field: string; name: string; path?: string; bytes?: Buffer; type?: string }[], headers: Record<string, string> = {}): Request {
  const boundary = `----evidence${Math.random().toString(16).slice(2)}`;
  const encoder = new TextEncoder();
  async function* body() {
    for (const [name, value] of Object.entries(fields)) {
      yield encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    for (const f of files) {
      yield encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type ?? "application/octet-stream"}\r\n\r\n`);
      if (f.path) for await (const chunk of fs.createReadStream(f.path, { highWaterMark: 256 * 1024 })) yield new Uint8Array(chunk as Buffer);
      else yield new Uint8Array(f.bytes!);
      yield encoder.encode("\r\n");
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  const iterator = body();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
  });
  return new Request(url, {
    method: "POST",
    body: stream,
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, ...headers },
    // Node's fetch needs duplex for a streamed body
    duplex: "half",
  } as RequestInit);
}

