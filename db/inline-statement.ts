import pg from "pg";
import pgUtils from "pg/lib/utils.js";

/**
 * A compiled PostgreSQL statement with its parameters written in as literals, so several can be
 * sent in one round trip (a query without parameters may hold several statements; one with
 * parameters may not). Each value becomes what node-postgres would have sent for it (its
 * prepareValue: dates, arrays and objects as their text forms), quoted by pg's escapeLiteral:
 * a quoted literal is untyped, as a parameter sent as text is, so the server gives both the
 * same type. Bytes become bytea's hex text. A NUL, which no text column can hold and a
 * parameter would have been refused for, is refused here before anything is sent.
 *
 * Placeholders ($1, $2, …) are replaced only outside quoted strings and quoted names, so a
 * literal or a name that happens to hold "$1" is left as it is.
 */
export function inlineStatement(text: string, parameters: readonly unknown[]): string {
  const literals = parameters.map(literal);
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      // to the closing quote; a doubled quote inside stays inside
      let j = i + 1;
      for (;;) {
        const k = text.indexOf(c, j);
        if (k === -1) throw new Error("Unterminated quote in a statement to inline");
        if (text[k + 1] === c) j = k + 2;
        else {
          j = k + 1;
          break;
        }
      }
      out += text.slice(i, j);
      i = j;
    } else if (c === "$" && /[0-9]/.test(text[i + 1] ?? "")) {
      let j = i + 1;
      while (j < text.length && /[0-9]/.test(text[j]!)) j++;
      const n = Number(text.slice(i + 1, j));
      if (n < 1 || n > literals.length) throw new Error(`Statement names parameter $${n} of ${literals.length}`);
      out += literals[n - 1];
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function literal(value: unknown): string {
  const prepared = pgUtils.prepareValue(value) as unknown;
  if (prepared === null || prepared === undefined) return "NULL";
  if (Buffer.isBuffer(prepared)) return `'\\x${prepared.toString("hex")}'`;
  const text = String(prepared);
  // a NUL would end the statement's text where it stands
  if (text.includes("\0")) throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
  return pg.escapeLiteral(text);
}
