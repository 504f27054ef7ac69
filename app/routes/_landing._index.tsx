/** `/`: the landing page itself lives in the `_landing` layout; nothing opens over it here. */
export default function LandingIndex() {
  return null;
}
