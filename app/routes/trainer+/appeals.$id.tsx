/**
 * An appeal assigned to this trainer to decide: the same page, loader and actions as the admins'
 * register item (the model lets a trainer read only the appeals assigned to them).
 */
export { loader, action, meta, ErrorBoundary, default } from "../admin+/complaints.$id";
