import { useEffect, useState } from "react";

/** True once React runs in the browser: the server's HTML must work without it, so controls that need script wait for this. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
