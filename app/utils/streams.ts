/**
 * A download's body reads nothing until its reader asks: by default a stream asks its source
 * for a first chunk as soon as it is made, and on PostgreSQL that opens the export's cursor (a
 * connection and a snapshot of its own, db/connection.ts cursorBatches), which a body nobody
 * reads (a HEAD request, a caller that looks at the status only) then held.
 */
export const READ_WHEN_ASKED: QueuingStrategy<Uint8Array> = { highWaterMark: 0 };
