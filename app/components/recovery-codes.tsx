import { useEffect, useState } from "react";
import { showToast } from "./toaster";
import { Button, buttonClasses } from "./ui";

/** The name the downloaded file is saved under. */
const FILE_NAME = "summit-recovery-codes.txt";

/**
 * Two-step sign-in's recovery codes, shown once, in the answer that made them: one code a line,
 * a "Download as text" link that works without JavaScript (the file is in the link itself, so
 * no address can hand the codes out again), and with JavaScript a "Copy codes" button.
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const text = `Recovery codes for Summit Crane & Rigging Training. Each signs you in once.\n\n${codes.join("\n")}\n`;
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => showToast({ type: "success", message: "Recovery codes copied" }),
      () => showToast({ type: "error", message: "Could not copy: select the codes, or download them" }),
    );
  return (
    <div className="space-y-3">
      <ul aria-label="Recovery codes" className="space-y-1 rounded bg-steel-50 p-4 font-mono text-base tracking-wider text-steel-900">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        {hydrated ? (
          <Button variant="secondary" onClick={copy}>
            Copy codes
          </Button>
        ) : null}
        <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download={FILE_NAME} className={buttonClasses("secondary")}>
          Download as text
        </a>
      </div>
    </div>
  );
}
