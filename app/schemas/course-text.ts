/** Course form limits the page needs too, kept free of zod so the browser bundle stays small. */

/** NAT00060's subject name is 100 characters wide; a longer official title would be cut in the file. */
export const OFFICIAL_TITLE_MAX = 100;
