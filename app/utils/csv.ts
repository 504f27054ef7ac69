/** CSV text: the one field rule every CSV shares (csvResponse streams downloads with it; toCsv writes a whole file for the HRW audit pack). */

/**
 * One CSV field: quoted when it holds a comma, quote or line break; a leading =, +, -, @,
 * tab or carriage return is defused with an apostrophe so a spreadsheet never runs it as a
 * formula (CSV injection).
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text with a header line, CRLF line ends (RFC 4180). */
export function toCsv<K extends string>(columns: readonly K[], rows: Array<Record<K, string | number | null>>): string {
  const lines = [columns.join(","), ...rows.map((row) => columns.map((c) => csvField(row[c])).join(","))];
  return `${lines.join("\r\n")}\r\n`;
}
