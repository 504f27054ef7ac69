/**
 * An RPL this trainer assesses: the same page, loader and actions as the admins' (the model lets
 * a trainer read only the applications they assess, and decide only those).
 */
export { loader, action, meta, ErrorBoundary, default } from "../admin+/recognition.$id";
