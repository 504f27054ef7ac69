/** The appeals assigned to this trainer to decide: the register's page, scoped by the model. */
export { loader, meta, ErrorBoundary, default } from "../admin+/complaints._index";
