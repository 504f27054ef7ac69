/** `/`: the landing page itself lives in the `_landing` layout; nothing opens over it here. */
export default function LandingIndex() {
  return null;
}

/** The landing layout's meta, with its description, is this page's (root.tsx adds none). */
export const handle = { describesItself: true };
