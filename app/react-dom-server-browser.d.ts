// "react-dom/server.browser" is the web-streams build of the renderer (render-document.server.ts
// says why the server uses it); its types are those of "react-dom/server".
declare module "react-dom/server.browser" {
  export { renderToReadableStream } from "react-dom/server";
}
