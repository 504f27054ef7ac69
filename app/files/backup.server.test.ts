import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backupFileStore } from "./backup.server";
import { sha256OfFile } from "./intake.server";
import { localFileStore } from "./store.server";

describe("backing up the local file store", () => {
  it("copies every stored file and checks each against its hash", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-backup-"));
    const store = localFileStore(path.join(dir, "files"));
    for (const text of ["one", "two"]) {
      const file = path.join(dir, text);
      fs.writeFileSync(file, text);
      await store.put(await sha256OfFile(file), file);
    }
    expect(await backupFileStore(path.join(dir, "files"), path.join(dir, "copy"))).toEqual({ files: 2, bytes: 6 });
    // a damaged copy is found
    const [first] = fs.readdirSync(path.join(dir, "copy"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    fs.writeFileSync(path.join(first!.parentPath, first!.name), "changed");
    await expect(backupFileStore(path.join(dir, "files"), path.join(dir, "copy"))).rejects.toThrow(/does not match its hash/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
