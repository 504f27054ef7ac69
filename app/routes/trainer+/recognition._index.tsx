/** The RPL applications assigned to this trainer to assess: the register's page, scoped by the model. */
export { loader, meta, ErrorBoundary, default } from "../admin+/recognition._index";
