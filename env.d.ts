/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// remix.config.js turns single fetch on; loaders' and actions' types follow it (useLoaderData
// infers what turbo-stream sends, not what JSON would)
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export {};
