/**
 * The little of `oidc-provider` the test provider uses (the package ships no types, and
 * DefinitelyTyped's lag its releases).
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
  }
  interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        interactions?: { url: (ctx: unknown, interaction: { uid: string }) => string };
        findAccount?: (ctx: unknown, id: string) => Promise<{ accountId: string; claims: () => Promise<Record<string, unknown>> } | undefined>;
      },
    );
    Grant: new (input: { accountId: string; clientId: string }) => GrantInstance;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (ctx: unknown, error: unknown) => void): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
