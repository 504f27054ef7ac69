/** The one helper of node-postgres's own utilities that it does not export by name: how it sends a value as a parameter. */
declare module "pg/lib/utils.js" {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
