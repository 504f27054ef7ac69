import type { HeadersFunction } from "@remix-run/node";

/**
 * A page whose URL holds a live token (a password reset, an invitation): never cached, never
 * indexed, and its Referer carries the origin at most, never the path. Not "no-referrer": that
 * makes the browser send "Origin: null" with the page's form, which the cross-site gate rightly
 * refuses, so the form would fail without JavaScript.
 */
export const secretPageMeta = [
  { name: "referrer", content: "strict-origin" },
  { name: "robots", content: "noindex" },
];

export const secretPageHeaders: HeadersFunction = () => ({ "Cache-Control": "no-store" });
