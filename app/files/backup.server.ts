import fs from "node:fs";
import path from "node:path";
import { sha256OfFile } from "./intake.server";

/**
 * Copies a local file store (FILE_STORE=file:DIR) to `target` and checks the copy: every file's
 * SHA-256 must be its name, since the store is addressed by content. Files already in the
 * target with the right hash are not copied again. An S3 store is backed up by the object
 * store's own means (README).
 */
export async function backupFileStore(source: string, target: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  if (!fs.existsSync(source)) return { files, bytes };
  const walk = async (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const from = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(from);
      else if (/^[0-9a-f]{64}$/.test(entry.name)) {
        const to = path.join(target, path.relative(source, from));
        fs.mkdirSync(path.dirname(to), { recursive: true });
        if (!fs.existsSync(to)) await fs.promises.copyFile(from, to);
        if ((await sha256OfFile(to)) !== entry.name) throw new Error(`The copy of ${entry.name} does not match its hash`);
        files += 1;
        bytes += fs.statSync(to).size;
      }
    }
  };
  await walk(source);
  return { files, bytes };
}
